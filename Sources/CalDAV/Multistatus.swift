import Foundation
import XMLCoder

#if canImport(FoundationXML)
  import FoundationXML
#endif

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
    let responses = container.lenient([Lenient<Response>].self, .response)
    self.responses = responses?.compactMap(\.value) ?? []
    syncToken = container.lenient(String.self, .syncToken)
      .map(Self.trimmed).flatMap { $0.isEmpty ? nil : $0 }
  }

  /// Reads `data`; a body that is not a multistatus is `CalDAVError.malformed`.
  static func parse(_ data: Data, from url: URL) throws(CalDAVError) -> Multistatus {
    do {
      return try decode(Multistatus.self, from: data)
    } catch {
      throw .malformed("\(url.absoluteString) did not answer a readable multistatus (\(error))")
    }
  }

  /// Decodes an XML body the way every body is read: namespaces processed, text kept
  /// exactly as sent (calendar data keeps its spaces), white space between elements dropped.
  /// XMLCoder builds its tree by recursion, so a body nested deeper than any DAV answer
  /// (``maximumDepth``) is refused first, by a pass of Foundation's parser that stops there.
  static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
    let check = DepthCheck()
    let parser = XMLParser(data: data)
    parser.delegate = check
    _ = parser.parse()
    if check.tooDeep {
      throw CalDAVError.malformed("XML nested deeper than \(maximumDepth) elements")
    }
    let decoder = XMLDecoder(trimValueWhitespaces: false, removeWhitespaceElements: true)
    decoder.shouldProcessNamespaces = true
    return try decoder.decode(type, from: data)
  }

  /// Deeper than any multistatus or DAV:error (about eight levels), far from the stack's end.
  static let maximumDepth = 64

  private final class DepthCheck: NSObject, XMLParserDelegate {
    var depth = 0
    var tooDeep = false

    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String] = [:]
    ) {
      depth += 1
      if depth > Multistatus.maximumDepth {
        tooDeep = true
        parser.abortParsing()
      }
    }

    func parser(
      _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
      qualifiedName: String?
    ) {
      depth -= 1
    }
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
    hrefs = (container.lenient([String].self, .href) ?? [])
      .map(Multistatus.trimmed).filter { !$0.isEmpty }
    status = container.lenient(String.self, .status)
      .flatMap(Response.statusCode)
    let propstats = container.lenient([Lenient<Propstat>].self, .propstat)
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
    prop = container.lenient(Properties.self, .prop)
    status = container.lenient(String.self, .status)
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
      if let text = container.lenient(String.self, key) {
        return text
      }
      // An element with attributes as well as text (Apple's calendar-color may carry
      // symbolic-color="…").
      return container.lenient(TextWithAttributes.self, key)?.value
    }
    func trimmedText(_ key: CodingKeys) -> String? {
      text(key).map(Multistatus.trimmed).flatMap { $0.isEmpty ? nil : $0 }
    }
    if container.contains(.resourcetype) {
      resourceTypes = container.lenient(ElementNames.self, .resourcetype)?.names ?? []
    }
    displayName = trimmedText(.displayname)
    calendarColor = trimmedText(.calendarColor)
    ctag = trimmedText(.getctag)
    etag = trimmedText(.getetag)
    syncToken = trimmedText(.syncToken)
    calendarData = text(.calendarData)
    if container.contains(.components) {
      components = container.lenient(ComponentSet.self, .components)?.names ?? []
    }
    if container.contains(.privileges) {
      privileges = container.lenient(PrivilegeSet.self, .privileges)?.names ?? []
    }
    currentUserPrincipal = container.lenient(Hrefs.self, .currentUserPrincipal)?.hrefs.first
    principalURL = container.lenient(Hrefs.self, .principalURL)?.hrefs.first
    calendarHomeSet = container.lenient(Hrefs.self, .calendarHomeSet)?.hrefs
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
    let components = container.lenient([Lenient<Component>].self, .comp)
    names = (components?.compactMap(\.value?.name) ?? []).map {
      Multistatus.trimmed($0).uppercased()
    }
  }
}

/// `<privilege><write/></privilege>…`: the names inside each privilege.
struct PrivilegeSet: Decodable {
  var names: Set<String>

  enum CodingKeys: String, CodingKey { case privilege }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let privileges = container.lenient(
      [Lenient<ElementNames>].self, .privilege)
    names = Set((privileges?.compactMap(\.value) ?? []).flatMap(\.names))
  }
}

/// A property whose value is DAV:href elements.
struct Hrefs: Decodable {
  var hrefs: [String]

  enum CodingKeys: String, CodingKey { case href }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    hrefs = (container.lenient([String].self, .href) ?? [])
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

extension KeyedDecodingContainer {
  /// The value under `key`; nil when it is absent or cannot be read as a `Value`.
  func lenient<Value: Decodable>(_ type: Value.Type, _ key: Key) -> Value? {
    try? decodeIfPresent(type, forKey: key)
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
  return (try? Multistatus.decode(ElementNames.self, from: body))?.names ?? []
}
