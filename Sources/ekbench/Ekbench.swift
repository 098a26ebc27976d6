import ArgumentParser

/// `ekbench`: release-mode benchmarks of OpenEventKit. Run with `swift run -c release ekbench`.
@main
struct Ekbench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ekbench",
    abstract: "Measure OpenEventKit's speed (build with -c release).",
    subcommands: [
      RRuleBenchmark.self, StoreBenchmark.self, ICSBenchmark.self,
      SyncBenchmark.self, AlarmBenchmark.self, BatchingBenchmark.self, BatchingRun.self,
      SizeBenchmark.self, JSONBenchmark.self, MCPBenchmark.self,
    ])
}
