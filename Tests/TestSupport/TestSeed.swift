import Foundation

/// A test's random choices (the moments a crash test kills a writer, say), all drawn from one
/// seed that the test prints, so that a run that failed can be replayed with the same
/// choices: `OPENEVENTKIT_TEST_SEED=N swift test --skip-build --filter NAME`.
///
/// SplitMix64: small, fast, and the same sequence from the same seed on every machine.
///
/// ```swift
/// var random = TestSeed("importKilledAtRandom")  // prints "importKilledAtRandom: seed …"
/// let delay = Double.random(in: 0.2...1.2, using: &random)
/// ```
public struct TestSeed: RandomNumberGenerator {
  /// The environment variable that replays a seed.
  public static let variable = "OPENEVENTKIT_TEST_SEED"

  /// The seed the choices come from: the variable's when it is set, else a fresh one.
  public let seed: UInt64
  private var state: UInt64

  /// A generator for the test `name`, its seed printed.
  public init(_ name: String) {
    let given = ProcessInfo.processInfo.environment[Self.variable].flatMap { UInt64($0) }
    seed = given ?? UInt64.random(in: 0...UInt64.max)
    state = seed
    print("\(name): seed \(seed) (replay with \(Self.variable)=\(seed))")
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}
