/// The two digests HTTP Digest authentication uses (RFC 7616 §3.3 and §6.1), written here
/// because Foundation on Linux has neither and the package takes on no cryptography library
/// for them. MD5 answers a server's challenge only; SHA-256 also tells apart the names of
/// resources whose UIDs make one safe name (OpenEventKit's `ResourceNames`).
package enum Digests {
  /// MD5 (RFC 1321) of `bytes`.
  package static func md5<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
    var state: (UInt32, UInt32, UInt32, UInt32) = (
      0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476
    )
    let message = padded(Array(bytes), bigEndianLength: false)
    var words = [UInt32](repeating: 0, count: 16)
    for block in stride(from: 0, to: message.count, by: 64) {
      for index in 0..<16 {
        let offset = block + index * 4
        words[index] =
          UInt32(message[offset]) | UInt32(message[offset + 1]) << 8
          | UInt32(message[offset + 2]) << 16 | UInt32(message[offset + 3]) << 24
      }
      var (a, b, c, d) = state
      for step in 0..<64 {
        var f: UInt32
        let g: Int
        switch step {
        case 0..<16:
          f = (b & c) | (~b & d)
          g = step
        case 16..<32:
          f = (d & b) | (~d & c)
          g = (5 &* step &+ 1) % 16
        case 32..<48:
          f = b ^ c ^ d
          g = (3 &* step &+ 5) % 16
        default:
          f = c ^ (b | ~d)
          g = (7 &* step) % 16
        }
        f = f &+ a &+ md5Constants[step] &+ words[g]
        a = d
        d = c
        c = b
        b = b &+ rotateLeft(f, md5Shifts[step])
      }
      state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
    return [state.0, state.1, state.2, state.3].flatMap { word in
      (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }
    }
  }

  /// SHA-256 (FIPS 180-4) of `bytes`.
  package static func sha256<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
    var hash: [UInt32] = [
      0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab,
      0x5be0_cd19,
    ]
    let message = padded(Array(bytes), bigEndianLength: true)
    var schedule = [UInt32](repeating: 0, count: 64)
    for block in stride(from: 0, to: message.count, by: 64) {
      for index in 0..<16 {
        let offset = block + index * 4
        schedule[index] =
          UInt32(message[offset]) << 24 | UInt32(message[offset + 1]) << 16
          | UInt32(message[offset + 2]) << 8 | UInt32(message[offset + 3])
      }
      for index in 16..<64 {
        let early = schedule[index - 15]
        let late = schedule[index - 2]
        let sigma0 = rotateRight(early, 7) ^ rotateRight(early, 18) ^ (early >> 3)
        let sigma1 = rotateRight(late, 17) ^ rotateRight(late, 19) ^ (late >> 10)
        schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
      }
      var (a, b, c, d, e, f, g, h) = (
        hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7]
      )
      for index in 0..<64 {
        let sum1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
        let choice = (e & f) ^ (~e & g)
        let first = h &+ sum1 &+ choice &+ sha256Constants[index] &+ schedule[index]
        let sum0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
        let majority = (a & b) ^ (a & c) ^ (b & c)
        let second = sum0 &+ majority
        h = g
        g = f
        f = e
        e = d &+ first
        d = c
        c = b
        b = a
        a = first &+ second
      }
      for (index, value) in [a, b, c, d, e, f, g, h].enumerated() {
        hash[index] = hash[index] &+ value
      }
    }
    return hash.flatMap { word in
      (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) }
    }
  }

  /// Lower-case hexadecimal, as Digest authentication writes its hashes.
  package static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text = [UInt8]()
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The message, a 1 bit, zeros to 56 bytes modulo 64, and the length in bits in 8 bytes:
  /// the padding both digests share, differing only in the byte order of the length.
  private static func padded(_ message: [UInt8], bigEndianLength: Bool) -> [UInt8] {
    var bytes = message
    let bitLength = UInt64(truncatingIfNeeded: message.count) &* 8
    bytes.append(0x80)
    while bytes.count % 64 != 56 { bytes.append(0) }
    for index in 0..<8 {
      let shift = bigEndianLength ? 56 - 8 * index : 8 * index
      bytes.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    return bytes
  }

  private static func rotateLeft(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value << count) | (value >> (32 - count))
  }

  private static func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value >> count) | (value << (32 - count))
  }

  private static let md5Shifts: [UInt32] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
    5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
    6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
  ]

  /// floor(abs(sin(i + 1)) × 2³²), RFC 1321 §3.4.
  private static let md5Constants: [UInt32] = [
    0xd76a_a478, 0xe8c7_b756, 0x2420_70db, 0xc1bd_ceee, 0xf57c_0faf, 0x4787_c62a, 0xa830_4613,
    0xfd46_9501, 0x6980_98d8, 0x8b44_f7af, 0xffff_5bb1, 0x895c_d7be, 0x6b90_1122, 0xfd98_7193,
    0xa679_438e, 0x49b4_0821, 0xf61e_2562, 0xc040_b340, 0x265e_5a51, 0xe9b6_c7aa, 0xd62f_105d,
    0x0244_1453, 0xd8a1_e681, 0xe7d3_fbc8, 0x21e1_cde6, 0xc337_07d6, 0xf4d5_0d87, 0x455a_14ed,
    0xa9e3_e905, 0xfcef_a3f8, 0x676f_02d9, 0x8d2a_4c8a, 0xfffa_3942, 0x8771_f681, 0x6d9d_6122,
    0xfde5_380c, 0xa4be_ea44, 0x4bde_cfa9, 0xf6bb_4b60, 0xbebf_bc70, 0x289b_7ec6, 0xeaa1_27fa,
    0xd4ef_3085, 0x0488_1d05, 0xd9d4_d039, 0xe6db_99e5, 0x1fa2_7cf8, 0xc4ac_5665, 0xf429_2244,
    0x432a_ff97, 0xab94_23a7, 0xfc93_a039, 0x655b_59c3, 0x8f0c_cc92, 0xffef_f47d, 0x8584_5dd1,
    0x6fa8_7e4f, 0xfe2c_e6e0, 0xa301_4314, 0x4e08_11a1, 0xf753_7e82, 0xbd3a_f235, 0x2ad7_d2bb,
    0xeb86_d391,
  ]

  /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
  private static let sha256Constants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]
}
