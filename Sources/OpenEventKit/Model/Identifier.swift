import Foundation
import Synchronization

/// New identifiers for items and calendars: random version-4 UUID strings
/// (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`).
///
/// Foundation's `UUID()` reads the kernel's random source for each one, which costs about
/// 4 µs — more than the rest of a batched save. Identifiers need to be unique, not secret, so
/// they come from a xoshiro256** generator seeded once per process from the kernel (and again
/// after a fork) instead.
package enum Identifier {
  private static let generator = Mutex(Generator())

  package static func make() -> String {
    let (high, low) = generator.withLock { generator in
      if generator.processId != getpid() { generator = Generator() }
      return (generator.next(), generator.next())
    }
    // Version 4, RFC 9562 variant.
    let versioned = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
    let varied = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
    return format(versioned, varied)
  }

  private static let digits = Array("0123456789ABCDEF".utf8)

  private static func format(_ high: UInt64, _ low: UInt64) -> String {
    String(unsafeUninitializedCapacity: 36) { buffer in
      var index = 0
      func put(_ value: UInt64, nibbles: Int) {
        for shift in stride(from: (nibbles - 1) * 4, through: 0, by: -4) {
          buffer[index] = digits[Int((value >> UInt64(shift)) & 0xF)]
          index += 1
        }
      }
      func dash() {
        buffer[index] = UInt8(ascii: "-")
        index += 1
      }
      put(high >> 32, nibbles: 8)
      dash()
      put(high >> 16, nibbles: 4)
      dash()
      put(high, nibbles: 4)
      dash()
      put(low >> 48, nibbles: 4)
      dash()
      put(low, nibbles: 12)
      return index
    }
  }

  /// xoshiro256** (Blackman and Vigna), seeded from the system's random source.
  private struct Generator: Sendable {
    var state: (UInt64, UInt64, UInt64, UInt64)
    let processId = getpid()

    init() {
      var system = SystemRandomNumberGenerator()
      state = (system.next(), system.next(), system.next(), system.next() | 1)
    }

    mutating func next() -> UInt64 {
      let result = rotate(state.1 &* 5, 7) &* 9
      let t = state.1 << 17
      state.2 ^= state.0
      state.3 ^= state.1
      state.1 ^= state.2
      state.0 ^= state.3
      state.2 ^= t
      state.3 = rotate(state.3, 45)
      return result
    }

    private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
  }
}
