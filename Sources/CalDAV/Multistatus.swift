import Foundation

/// A DAV:multistatus (RFC 4918 §13), read by ``XMLReader`` one response at a time.
/// Elements are known by their local names, whatever prefixes the server chose. Every
/// property is read leniently: one that cannot be read is absent, and one response that
/// cannot be read does not lose the others.
struct Multistatus {
  var responses: [Response] = []
  /// The report's new sync token (RFC 6578 §6.2), outside every response.
  var syncToken: String?

  /// Reads `data`, the answer of `url`: ``CalDAVError/unreadableXML(_:_:)`` when it is not
  /// readable XML, ``CalDAVError/malformed(_:)`` when it is XML but no multistatus.
  static func parse(_ data: Data, from url: URL) throws(CalDAVError) -> Multistatus {
    var multistatus = Multistatus()
    let root: String
    do throws(XMLFault) {
      root = try XMLReader.read(data) { element in
        switch element.name {
        case "response": multistatus.responses.append(Response(element))
        case "sync-token":
          let token = trimmed(element.text)
          multistatus.syncToken = token.isEmpty ? nil : token
        default: break
        }
      }
    } catch {
      throw .unreadableXML(url, error)
    }
    guard root == "multistatus" else {
      throw .malformed("\(url.absoluteString) answered <\(root)> where a multistatus belongs")
    }
    return multistatus
  }

  /// `text` without the white space and line ends around it, as
  /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives it, looking only at its ends:
  /// Foundation's copies the whole text to UTF-16 and back, and took 40% of a first sync's
  /// processor time on the calendar data of its answers.
  static func trimmed(_ text: String) -> String {
    let scalars = text.unicodeScalars
    let blank = CharacterSet.whitespacesAndNewlines
    guard let first = scalars.firstIndex(where: { !blank.contains($0) }),
      let last = scalars.lastIndex(where: { !blank.contains($0) })
    else { return "" }
    if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex {
      return text
    }
    return String(scalars[first...last])
  }
}

/// One DAV:response: its hrefs, and either a status for them all or propstats.
struct Response {
  var hrefs: [String]
  /// The status of the whole response, e.g. 404 for a member removed or not found.
  var status: Int?
  var propstats: [Propstat]

  init(_ element: XMLReader.Element) {
    hrefs = Self.hrefTexts(in: element)
    status = element.child("status").flatMap { Self.statusCode($0.text) }
    propstats = element.children("propstat").map(Propstat.init)
  }

  /// The properties the server found (a 2xx propstat), merged; empty when none.
  var found: Properties {
    var properties = Properties()
    for propstat in propstats where (200..<300).contains(propstat.status ?? 200) {
      if let prop = propstat.prop { properties.merge(prop) }
    }
    return properties
  }

  /// The DAV:href children of an element, trimmed, the empty ones left out.
  static func hrefTexts(in element: XMLReader.Element) -> [String] {
    element.children("href").map { Multistatus.trimmed($0.text) }.filter { !$0.isEmpty }
  }

  /// 404 from "HTTP/1.1 404 Not Found".
  static func statusCode(_ line: String) -> Int? {
    let parts = line.split(separator: " ", omittingEmptySubsequences: true)
    return parts.count >= 2 ? Int(parts[1]) : nil
  }
}

struct Propstat {
  var prop: Properties?
  var status: Int?

  init(_ element: XMLReader.Element) {
    prop = element.child("prop").map(Properties.init)
    status = element.child("status").flatMap { Response.statusCode($0.text) }
  }
}

/// The properties this client asks for, by local name (DAV:, CalDAV, CalendarServer and
/// Apple's iCal namespaces).
struct Properties {
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

  init(_ prop: XMLReader.Element) {
    for element in prop.children {
      // Exactly as sent: calendar data keeps its spaces (and is not scanned again here).
      if element.name == "calendar-data" {
        calendarData = element.text
        continue
      }
      let trimmed = Multistatus.trimmed(element.text)
      let text = trimmed.isEmpty ? nil : trimmed
      switch element.name {
      case "resourcetype": resourceTypes = Set(element.children.map(\.name))
      case "displayname": displayName = text
      // Apple's calendar-color may carry symbolic-color="…" beside its text.
      case "calendar-color": calendarColor = text
      case "getctag": ctag = text
      case "getetag": etag = text
      case "sync-token": syncToken = text
      case "supported-calendar-component-set":
        components = element.children("comp").compactMap { $0.attributes["name"] }
          .map { Multistatus.trimmed($0).uppercased() }.filter { !$0.isEmpty }
      case "current-user-privilege-set":
        privileges = Set(element.children("privilege").flatMap { $0.children.map(\.name) })
      case "current-user-principal": currentUserPrincipal = Response.hrefTexts(in: element).first
      case "principal-URL": principalURL = Response.hrefTexts(in: element).first
      case "calendar-home-set": calendarHomeSet = Response.hrefTexts(in: element)
      default: break
      }
    }
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

/// The preconditions a DAV:error body names (RFC 4918 §16): "valid-sync-token",
/// "supported-report"…; empty when the body is not one.
func preconditions(in body: Data) -> Set<String> {
  guard !body.isEmpty else { return [] }
  var names = Set<String>()
  guard (try? XMLReader.read(body) { names.insert($0.name) }) != nil else { return [] }
  return names
}
