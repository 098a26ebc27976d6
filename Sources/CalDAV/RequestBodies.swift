import Foundation

/// The XML bodies the client sends, written as text: fixed shapes with a few values inserted,
/// each escaped.
enum RequestBodies {
  static let namespaces =
    #"xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" "#
    + #"xmlns:CS="http://calendarserver.org/ns/" xmlns:I="http://apple.com/ns/ical/""#

  /// A PROPFIND for these properties, each a prefixed name such as "D:getetag".
  static func propfind(_ properties: [String]) -> Data {
    let props = properties.map { "<\($0)/>" }.joined()
    return document("<D:propfind \(namespaces)><D:prop>\(props)</D:prop></D:propfind>")
  }

  /// RFC 6578 §3.2: the changes since `token`, or every member when nil; at most `limit`
  /// of them when given (§3.7, DAV:limit); each member's ETag, and its calendar data too
  /// when `calendarData`.
  static func syncCollection(token: String?, limit: Int? = nil, calendarData: Bool = false)
    -> Data
  {
    let token = token.map { "<D:sync-token>\(escape($0))</D:sync-token>" } ?? "<D:sync-token/>"
    let limit = limit.map { "<D:limit><D:nresults>\($0)</D:nresults></D:limit>" } ?? ""
    let data = calendarData ? "<C:calendar-data/>" : ""
    return document(
      "<D:sync-collection \(namespaces)>\(token)<D:sync-level>1</D:sync-level>\(limit)"
        + "<D:prop><D:getetag/>\(data)</D:prop></D:sync-collection>")
  }

  /// RFC 4791 §7.8: every resource of a calendar (no filter but VCALENDAR, which every
  /// calendar object resource matches) with its ETag and calendar data.
  static func calendarQueryOfEverything() -> Data {
    document(
      "<C:calendar-query \(namespaces)><D:prop><D:getetag/><C:calendar-data/></D:prop>"
        + "<C:filter><C:comp-filter name=\"VCALENDAR\"/></C:filter></C:calendar-query>")
  }

  /// RFC 4791 §7.9: these resources' ETags and calendar data.
  static func multiget(hrefs: [String]) -> Data {
    let hrefs = hrefs.map { "<D:href>\(escape($0))</D:href>" }.joined()
    return document(
      "<C:calendar-multiget \(namespaces)><D:prop><D:getetag/><C:calendar-data/></D:prop>"
        + "\(hrefs)</C:calendar-multiget>")
  }

  /// RFC 4791 §5.3.1: a calendar with its name, colour and components.
  static func makeCalendar(displayName: String, color: String?, components: Set<String>) -> Data {
    var props = "<D:displayname>\(escape(displayName))</D:displayname>"
    if let color { props += "<I:calendar-color>\(escape(color))</I:calendar-color>" }
    if !components.isEmpty {
      let comps = components.sorted().map { #"<C:comp name="\#(escape($0))"/>"# }.joined()
      props += "<C:supported-calendar-component-set>\(comps)</C:supported-calendar-component-set>"
    }
    return document(
      "<C:mkcalendar \(namespaces)><D:set><D:prop>\(props)</D:prop></D:set></C:mkcalendar>")
  }

  /// RFC 4918 §9.2: a new name, and a new colour or none.
  static func updateCalendar(displayName: String, color: String?) -> Data {
    var body =
      "<D:propertyupdate \(namespaces)><D:set><D:prop>"
      + "<D:displayname>\(escape(displayName))</D:displayname>"
    if let color {
      body += "<I:calendar-color>\(escape(color))</I:calendar-color></D:prop></D:set>"
    } else {
      body += "</D:prop></D:set><D:remove><D:prop><I:calendar-color/></D:prop></D:remove>"
    }
    return document(body + "</D:propertyupdate>")
  }

  /// Text made safe for element content and attribute values. Characters XML 1.0 cannot
  /// hold at all (controls but tab and line breaks) are dropped.
  static func escape(_ text: String) -> String {
    var escaped = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&apos;"
      case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
      default:
        if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
        escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  private static func document(_ root: String) -> Data {
    Data((#"<?xml version="1.0" encoding="utf-8"?>"# + "\n" + root).utf8)
  }
}
