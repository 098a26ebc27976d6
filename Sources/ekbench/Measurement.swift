import Foundation
import OpenEventKit

/// The fastest of five runs of `body`, in seconds.
func bestOfFive(_ body: () throws -> Void) rethrows -> Double {
  var best = Double.infinity
  for _ in 0..<5 {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
  }
  return best
}

/// Keeps the optimizer from dropping a computation whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// Seconds `body` takes, once.
func seconds(_ body: () throws -> Void) rethrows -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  try body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Processor time this process has used (user and system), in seconds.
func processorSeconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
    + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// The process's resident memory in bytes: now (`VmRSS`) and its peak (`VmHWM`).
func residentMemory() -> (current: Int, peak: Int) {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return (0, 0)
  }
  func field(_ name: String) -> Int {
    for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
      let number = line.split(separator: " ").dropFirst().first { Int($0) != nil }
      return (number.flatMap { Int($0) } ?? 0) * 1024
    }
    return 0
  }
  return (field("VmRSS"), field("VmHWM"))
}

/// Resets the peak the kernel reports in `VmHWM` to the current resident size.
func resetPeakMemory() {
  guard let file = fopen("/proc/self/clear_refs", "w") else { return }
  fputs("5", file)
  fclose(file)
}

/// Prints one measurement: a JSON object on a line (`{"name": …, "perSecond": …}`) or a row
/// of the table, with what was measured.
func printFigures(json: Bool, _ name: String, _ figures: [String: Double], _ note: String) {
  if json {
    print(
      JSONWriter.object { json in
        json.member("name", name)
        for (key, value) in figures.sorted(by: { $0.key < $1.key }) {
          json.key(escaping: key)
          // Whole numbers as integers, others to the thousandth.
          if value.rounded() == value, let whole = Int(exactly: value) {
            json.integer(whole)
          } else {
            json.number((value * 1000).rounded() / 1000)
          }
        }
      })
  } else {
    let values = figures.sorted { $0.key < $1.key }.map { key, value in
      "\(key) " + (value.rounded() == value ? String(Int(value)) : String(format: "%.3f", value))
    }
    // Padded to line up, never cut: `padding(toLength:)` also shortens a longer text.
    let columns = values.joined(separator: ", ")
    print(
      name.padding(toLength: max(14, name.count + 1), withPad: " ", startingAt: 0)
        + columns.padding(toLength: max(46, columns.count + 2), withPad: " ", startingAt: 0)
        + note)
  }
}
