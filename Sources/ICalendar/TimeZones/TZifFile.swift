import Foundation

/// The contents of a compiled tz database file (TZif, RFC 8536) that the engine needs: the
/// UTC instants at which the offset changes, the offsets, and the POSIX TZ string that
/// extends the rules past the last listed transition.
struct TZifFile {
  var transitions: [ZoneTransition]
  /// The offset before the first transition (RFC 8536 §3.2: local time type 0).
  var initialOffset: Int
  /// The footer's rule for instants after the last transition, if the file has one.
  var footer: PosixTimeZoneRule?

  init(data: Data) throws(TZifError) {
    var reader = ByteReader(bytes: [UInt8](data))
    let v1 = try Header(reading: &reader)
    guard v1.version >= 2 else {
      // Version 1 files have 32-bit times only; read them as they are.
      self = try TZifFile.readBody(&reader, header: v1, timeSize: 4, footer: nil)
      return
    }
    // Skip the 32-bit block: version 2+ repeats everything with 64-bit times after it.
    try reader.skip(v1.bodySize(timeSize: 4))
    let v2 = try Header(reading: &reader)
    var body = try TZifFile.readBody(&reader, header: v2, timeSize: 8, footer: nil)
    if let text = reader.footerText(), !text.isEmpty {
      body.footer = PosixTimeZoneRule(text)
    }
    self = body
  }

  private struct Header {
    var version: Int
    var isUTCCount, isStdCount, leapCount, timeCount, typeCount, charCount: Int

    init(reading reader: inout ByteReader) throws(TZifError) {
      guard try reader.bytes(4) == Array("TZif".utf8) else { throw .notTZif }
      let versionByte = try reader.bytes(1)[0]
      version = versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0"))
      try reader.skip(15)
      isUTCCount = try reader.int32()
      isStdCount = try reader.int32()
      leapCount = try reader.int32()
      timeCount = try reader.int32()
      typeCount = try reader.int32()
      charCount = try reader.int32()
      guard typeCount > 0 else { throw .malformed("no local time types") }
      let counts = [isUTCCount, isStdCount, leapCount, timeCount, typeCount, charCount]
      guard counts.allSatisfy({ (0...1_000_000).contains($0) }) else {
        throw .malformed("a count in the header is out of range")
      }
    }

    func bodySize(timeSize: Int) -> Int {
      timeCount * timeSize + timeCount + typeCount * 6 + charCount
        + leapCount * (timeSize + 4) + isStdCount + isUTCCount
    }
  }

  private static func readBody(
    _ reader: inout ByteReader, header: Header, timeSize: Int, footer: PosixTimeZoneRule?
  ) throws(TZifError) -> TZifFile {
    var times: [Int] = []
    times.reserveCapacity(header.timeCount)
    for _ in 0..<header.timeCount {
      times.append(timeSize == 8 ? try reader.int64() : try reader.int32())
    }
    let typeIndices = try reader.bytes(header.timeCount).map(Int.init)
    var offsets: [Int] = []
    for _ in 0..<header.typeCount {
      offsets.append(try reader.int32())
      try reader.skip(2)  // isdst, designation index: not needed to compute instants
    }
    try reader.skip(header.charCount + header.leapCount * (timeSize + 4))
    try reader.skip(header.isStdCount + header.isUTCCount)

    var transitions: [ZoneTransition] = []
    var previous = offsets[0]
    for (time, typeIndex) in zip(times, typeIndices) {
      guard typeIndex < offsets.count else { throw .malformed("transition type out of range") }
      let offset = offsets[typeIndex]
      if offset != previous {
        transitions.append(ZoneTransition(utc: time, offsetBefore: previous, offsetAfter: offset))
      }
      previous = offset
    }
    return TZifFile(transitions: transitions, initialOffset: offsets[0], footer: footer)
  }

  private init(transitions: [ZoneTransition], initialOffset: Int, footer: PosixTimeZoneRule?) {
    self.transitions = transitions
    self.initialOffset = initialOffset
    self.footer = footer
  }
}

enum TZifError: Error {
  case notTZif
  case truncated
  case malformed(String)

  var reason: String {
    switch self {
    case .notTZif: "not a TZif file"
    case .truncated: "the file ends early"
    case .malformed(let what): what
    }
  }
}

/// Big-endian reads over a byte array, as TZif stores its integers.
private struct ByteReader {
  let bytes: [UInt8]
  var position = 0

  mutating func bytes(_ count: Int) throws(TZifError) -> [UInt8] {
    guard count >= 0, position + count <= bytes.count else { throw .truncated }
    defer { position += count }
    return Array(bytes[position..<position + count])
  }

  mutating func skip(_ count: Int) throws(TZifError) {
    guard count >= 0, position + count <= bytes.count else { throw .truncated }
    position += count
  }

  mutating func int32() throws(TZifError) -> Int {
    var value: UInt32 = 0
    for byte in try bytes(4) { value = value << 8 | UInt32(byte) }
    return Int(Int32(bitPattern: value))
  }

  mutating func int64() throws(TZifError) -> Int {
    var value: UInt64 = 0
    for byte in try bytes(8) { value = value << 8 | UInt64(byte) }
    return Int(Int64(bitPattern: value))
  }

  /// The text between the two newlines that end a version 2+ file.
  mutating func footerText() -> String? {
    guard position < bytes.count, bytes[position] == UInt8(ascii: "\n") else { return nil }
    let rest = bytes[(position + 1)...]
    guard let end = rest.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
    return String(decoding: rest[..<end], as: UTF8.self)
  }
}
