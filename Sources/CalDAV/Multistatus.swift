import Foundation
import XMLCoder

/// A DAV:multistatus (RFC 4918 §13), read with XMLCoder with namespaces processed, so that
/// elements are known by their local names whatever prefixes the server chose. Every property
/// is read leniently: one that cannot be read is absent, and one response that cannot be read
/// does not lose the others.
struct Multistatus: Decodable {
  var responses: [Response]
  /// The report's new sync token (RFC 6578 §6.2), outside every response.
  var syncToken: String?

  enum CodingKeys: String, CodingKey {
    case response
    case syncToken = "sync-token"
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let responses = (try? container.decodeIfPresent([Lenient<Response>].self, forKey: .response))
    self.responses = responses?.compactMap(\.value) ?? []
    syncToken = (try? container.decodeIfPresent(String.self, forKey: .syncToken))?
      .map(Self.trimmed).flatMap { $0.isEmpty ? nil : $0 }
  }

  /// Reads `data`; a body that is not a multistatus is `CalDAVError.malformed`.
  static func parse(_ data: Data, from url: URL) throws(CalDAVError) -> Multistatus {
    do {
      return try xmlDecoder().decode(Multistatus.self, from: data)
    } catch {
      throw .malformed("\(url.absoluteString) did not answer a readable multistatus (\(error))")
    }
  }

  /// The decoder every body is read with: namespaces processed, text kept exactly as sent
  /// (calendar data keeps its spaces), white space between elements dropped.
  static func xmlDecoder() -> XMLDecoder {
    let decoder = XMLDecoder(trimValueWhitespaces: false, removeWhitespaceElements: true)
    decoder.shouldProcessNamespaces = true
    return decoder
  }

  static func trimmed(_ text: String) -> String {
    text.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

/// One DAV:response: its hrefs, and either a status for them all or propstats.
struct Response: Decodable {
  var hrefs: [String]
  /// The status of the whole response, e.g. 404 for a member removed or not found.
  var status: Int?
  var propstats: [Propstat]

  enum CodingKeys: String, CodingKey {
    case href, status, propstat
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    hrefs = ((try? container.decodeIfPresent([String].self, forKey: .href)) ?? [])
      .map(Multistatus.trimmed).filter { !$0.isEmpty }
    status = ((try? container.decodeIfPresent(String.self, forKey: .status)))
      .flatMap(Response.statusCode)
    let propstats = try? container.decodeIfPresent([Lenient<Propstat>].self, forKey: .propstat)
    self.propstats = propstats?.compactMap(\.value) ?? []
  }

  /// The properties the server found (a 2xx propstat), merged; empty when none.
  var found: Properties {
    var properties = Properties()
    for propstat in propstats where (200..<300).contains(propstat.status ?? 200) {
      if let prop = propstat.prop { properties.merge(prop) }
    }
    return properties
  }

  /// 404 from "HTTP/1.1 404 Not Found".
  static func statusCode(_ line: String) -> Int? {
    let parts = line.split(separator: " ", omittingEmptySubsequences: true)
    return parts.count >= 2 ? Int(parts[1]) : nil
  }
}

struct Propstat: Decodable {
  var prop: Properties?
  var status: Int?

  enum CodingKeys: String, CodingKey {
    case prop, status
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    prop = (try? container.decodeIfPresent(Properties.self, forKey: .prop))
    status = ((try? container.decodeIfPresent(String.self, forKey: .status)))
      .flatMap(Response.statusCode)
  }
}

/// The properties this client asks for, by local name (DAV:, CalDAV, CalendarServer and
/// Apple's iCal namespaces).
struct Properties: Decodable {
  /// The names of the resource types: "collection", "calendar", "principal"…
  var resourceTypes: Set<String>?
  var displayName: String?
  var calendarColor: String?
  /// The names of supported-calendar-component-set's comps; nil when absent.
  var components: [String]?
  /// The names of the privileges in current-user-privilege-set; nil when absent.
  var privileges: Set<String>?
  var ctag: String?
  var syncToken: String?
  var etag: String?
  var calendarData: String?
  var currentUserPrincipal: String?
  var principalURL: String?
  var calendarHomeSet: [String]?

  init() {}

  enum CodingKeys: String, CodingKey {
    case resourcetype, displayname, getctag, getetag
    case calendarColor = "calendar-color"
    case components = "supported-calendar-component-set"
    case privileges = "current-user-privilege-set"
    case syncToken = "sync-token"
    case calendarData = "calendar-data"
    case currentUserPrincipal = "current-user-principal"
    case principalURL = "principal-URL"
    case calendarHomeSet = "calendar-home-set"
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func text(_ key: CodingKeys) -> String? {
      if let text = try? container.decodeIfPresent(String.self, forKey: key) {
        return text
      }
      // An element with attributes as well as text (Apple's calendar-color may carry
      // symbolic-color="…").
      return ((try? container.decodeIfPresent(TextWithAttributes.self, forKey: key)))?
        .value
    }
    func trimmedText(_ key: CodingKeys) -> String? {
      text(key).map(Multistatus.trimmed).flatMap { $0.isEmpty ? nil : $0 }
    }
    if container.contains(.resourcetype) {
      resourceTypes = ((try? container.decode(ElementNames.self, forKey: .resourcetype))?.names) ?? []
    }
    displayName = trimmedText(.displayname)
    calendarColor = trimmedText(.calendarColor)
    ctag = trimmedText(.getctag)
    etag = trimmedText(.getetag)
    syncToken = trimmedText(.syncToken)
    calendarData = text(.calendarData)
    if container.contains(.components) {
      components = ((try? container.decode(ComponentSet.self, forKey: .components))?.names) ?? []
    }
    if container.contains(.privileges) {
      privileges = ((try? container.decode(PrivilegeSet.self, forKey: .privileges))?.names) ?? []
    }
    currentUserPrincipal = ((try? container.decodeIfPresent(Hrefs.self, forKey: .currentUserPrincipal)))?
      .hrefs.first
    principalURL = ((try? container.decodeIfPresent(Hrefs.self, forKey: .principalURL)))?
      .hrefs.first
    calendarHomeSet = ((try? container.decodeIfPresent(Hrefs.self, forKey: .calendarHomeSet)))?
      .hrefs
  }

  /// Takes every property `other` has.
  mutating func merge(_ other: Properties) {
    resourceTypes = other.resourceTypes ?? resourceTypes
    displayName = other.displayName ?? displayName
    calendarColor = other.calendarColor ?? calendarColor
    components = other.components ?? components
    privileges = other.privileges ?? privileges
    ctag = other.ctag ?? ctag
    syncToken = other.syncToken ?? syncToken
    etag = other.etag ?? etag
    calendarData = other.calendarData ?? calendarData
    currentUserPrincipal = other.currentUserPrincipal ?? currentUserPrincipal
    principalURL = other.principalURL ?? principalURL
    calendarHomeSet = other.calendarHomeSet ?? calendarHomeSet
  }
}

/// The names of an element's child elements (`<resourcetype><collection/><C:calendar/>`),
/// and of a DAV:error's preconditions.
struct ElementNames: Decodable {
  var names: Set<String>

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyKey.self)
    // XMLCoder files an element's text under the empty key.
    names = Set(container.allKeys.map(\.stringValue).filter { !$0.isEmpty })
  }
}

/// `<C:comp name="VEVENT"/>`…
struct ComponentSet: Decodable {
  var names: [String]

  struct Component: Decodable { var name: String }
  enum CodingKeys: String, CodingKey { case comp }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let components = try? container.decodeIfPresent([Lenient<Component>].self, forKey: .comp)
    names = (components?.compactMap(\.value?.name) ?? []).map { Multistatus.trimmed($0).uppercased() }
  }
}

/// `<privilege><write/></privilege>…`: the names inside each privilege.
struct PrivilegeSet: Decodable {
  var names: Set<String>

  enum CodingKeys: String, CodingKey { case privilege }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let privileges = try? container.decodeIfPresent([Lenient<ElementNames>].self, forKey: .privilege)
    names = Set((privileges?.compactMap(\.value) ?? []).flatMap(\.names))
  }
}

/// A property whose value is DAV:href elements.
struct Hrefs: Decodable {
  var hrefs: [String]

  enum CodingKeys: String, CodingKey { case href }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    hrefs = ((try? container.decodeIfPresent([String].self, forKey: .href)) ?? [])
      .map(Multistatus.trimmed).filter { !$0.isEmpty }
  }
}

/// An element with attributes and text: the text, which XMLCoder files under the empty key.
struct TextWithAttributes: Decodable {
  var value: String

  enum CodingKeys: String, CodingKey { case value = "" }
}

/// A value that is nil instead of failing, so that one unreadable element of a list does not
/// lose the list.
struct Lenient<Value: Decodable>: Decodable {
  var value: Value?

  init(from decoder: any Decoder) throws {
    value = try? Value(from: decoder)
  }
}

struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// The preconditions a DAV:error body names (RFC 4918 §16): "valid-sync-token",
/// "supported-report"…; empty when the body is not one.
func preconditions(in body: Data) -> Set<String> {
  guard !body.isEmpty else { return [] }
  return (try? Multistatus.xmlDecoder().decode(ElementNames.self, from: body))?.names ?? []
}
