import Foundation
import Synchronization

// How alarms, participants, places and date components are kept in the database: JSON with
// short, stable keys and EventKit's raw values, so that a row reads the same in any release.

extension AlarmValues: Decodable {
  private enum CodingKeys: String, CodingKey {
    case relativeOffset, absoluteDate, proximity, location, emailAddress, soundName, url
    case kept = "ics"
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    relativeOffset = try container.decodeIfPresent(Double.self, forKey: .relativeOffset) ?? 0
    absoluteDate = try container.decodeIfPresent(Double.self, forKey: .absoluteDate).map {
      Date(timeIntervalSince1970: $0)
    }
    proximity =
      EKAlarmProximity(rawValue: try container.decodeIfPresent(Int.self, forKey: .proximity) ?? 0)
      ?? .none
    location = try container.decodeIfPresent(LocationValues.self, forKey: .location)
    emailAddress = try container.decodeIfPresent(String.self, forKey: .emailAddress)
    soundName = try container.decodeIfPresent(String.self, forKey: .soundName)
    url = try container.decodeIfPresent(URL.self, forKey: .url)
    kept = try container.decodeIfPresent([String].self, forKey: .kept) ?? []
  }

}

extension AlarmValues: JSONColumnValue {
  func write(to json: inout JSONWriter) {
    json.beginObject()
    if let absoluteDate {
      json.key("absoluteDate")
      json.number(absoluteDate.timeIntervalSince1970)
    }
    if let emailAddress {
      json.key("emailAddress")
      json.string(emailAddress)
    }
    if !kept.isEmpty {
      json.key("ics")
      kept.write(to: &json)
    }
    if let location {
      json.key("location")
      location.write(to: &json)
    }
    if proximity != .none {
      json.key("proximity")
      json.integer(proximity.rawValue)
    }
    if absoluteDate == nil {
      json.key("relativeOffset")
      json.number(relativeOffset)
    }
    if let soundName {
      json.key("soundName")
      json.string(soundName)
    }
    if let url {
      json.key("url")
      json.string(url.absoluteString)
    }
    json.endObject()
  }
}

extension ParticipantValues: Decodable {
  private enum CodingKeys: String, CodingKey {
    case url, name, role, status, type, isCurrentUser, isOrganizer
    case contentLine = "ics"
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    url = try container.decode(URL.self, forKey: .url)
    name = try container.decodeIfPresent(String.self, forKey: .name)
    role = EKParticipantRole(rawValue: try container.decode(Int.self, forKey: .role)) ?? .unknown
    status =
      EKParticipantStatus(rawValue: try container.decode(Int.self, forKey: .status)) ?? .unknown
    type = EKParticipantType(rawValue: try container.decode(Int.self, forKey: .type)) ?? .unknown
    isCurrentUser = try container.decode(Bool.self, forKey: .isCurrentUser)
    isOrganizer = try container.decode(Bool.self, forKey: .isOrganizer)
    contentLine = try container.decodeIfPresent(String.self, forKey: .contentLine)
  }

}

extension ParticipantValues: JSONColumnValue {
  func write(to json: inout JSONWriter) {
    json.beginObject()
    if let contentLine {
      json.key("ics")
      json.string(contentLine)
    }
    json.key("isCurrentUser")
    json.bool(isCurrentUser)
    json.key("isOrganizer")
    json.bool(isOrganizer)
    if let name {
      json.key("name")
      json.string(name)
    }
    json.key("role")
    json.integer(role.rawValue)
    json.key("status")
    json.integer(status.rawValue)
    json.key("type")
    json.integer(type.rawValue)
    json.key("url")
    json.string(url.absoluteString)
    json.endObject()
  }
}

extension LocationValues: JSONColumnValue {
  func write(to json: inout JSONWriter) {
    json.beginObject()
    if let latitude {
      json.key("latitude")
      json.number(latitude)
    }
    if let longitude {
      json.key("longitude")
      json.number(longitude)
    }
    json.key("radius")
    json.number(radius)
    if let title {
      json.key("title")
      json.string(title)
    }
    json.endObject()
  }
}

/// A value kept as a JSON column, written by ``JSONWriter`` and read back by its
/// `Decodable` conformance.
protocol JSONColumnValue {
  /// Writes the value, an object's members with their keys in sorted order.
  func write(to json: inout JSONWriter)
}

extension Array: JSONColumnValue where Element: JSONColumnValue {
  func write(to json: inout JSONWriter) {
    json.beginArray()
    for element in self { element.write(to: &json) }
    json.endArray()
  }
}

extension String: JSONColumnValue {
  func write(to json: inout JSONWriter) { json.string(self) }
}

/// JSON text in and out of database columns.
enum JSONColumn {
  /// The JSON text of `value`; nil for nil.
  ///
  /// Not remembered by value as decoding remembers texts: values that are equal can encode
  /// differently (an alarm 0 and -0 seconds before), and must read back as they were.
  static func text<Value: JSONColumnValue>(_ value: Value?) -> String? {
    guard let value else { return nil }
    var json = JSONWriter()
    value.write(to: &json)
    // JSON has no infinite number: no text, as JSONEncoder gave none.
    return json.failed ? nil : json.text
  }

  /// Lists are NULL when empty, so that most rows carry nothing.
  static func text<Element: JSONColumnValue>(list: [Element]) -> String? {
    list.isEmpty ? nil : text(list)
  }

  /// The JSON text of a value Foundation encodes (`DateComponents`); nil for nil.
  static func text<Value: Encodable>(_ value: Value?) -> String? {
    guard let value else { return nil }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    guard let data = try? encoder.encode(value) else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  /// The value a column's text holds; nil for NULL or text that does not decode.
  ///
  /// Rows repeat the same few texts (the same alarm, the same organizer, the same kept
  /// property of a calendar service), and Foundation's `JSONDecoder` costs far more than a
  /// lookup: the last texts decoded are remembered, by type and text (an export of 50,000
  /// events decoded one text per column and row: a fifth of its time).
  static func value<Value: Decodable & Sendable>(_ type: Value.Type, from text: String?) -> Value? {
    guard let text else { return nil }
    let key = DecodedKey(type: ObjectIdentifier(type), text: text)
    let remembered = text.utf8.count <= longestRemembered
    if remembered, let value = decoded.withLock({ $0[key] }) {
      return value.flatMap { $0 as? Value }
    }
    let value = try? JSONDecoder().decode(type, from: Data(text.utf8))
    if remembered {
      decoded.withLock { cache in
        if cache.count >= rememberedCount { cache.removeAll(keepingCapacity: true) }
        // `.some(nil)`: a text that did not decode is remembered too.
        cache[key] = .some(value.map { $0 as any Sendable })
      }
    }
    return value
  }

  /// The texts decoded last, with what they decoded to (nil when they did not).
  private static let decoded = Mutex<[DecodedKey: (any Sendable)?]>([:])

  private struct DecodedKey: Hashable {
    var type: ObjectIdentifier
    var text: String
  }

  /// Longer texts (a series' thousands of participants) are decoded each time.
  private static let longestRemembered = 4096
  /// How many texts are remembered before the memory starts over.
  private static let rememberedCount = 1024
}
