import Foundation
import Synchronization

/// What a program run to its end said and how it ended.
public struct ProcessResult: Sendable {
  public var status: Int32
  public var stdout: String
  public var stderr: String
}

/// Runs the `ekctl` built beside the tests to its end, as a person runs it: `input` on its
/// standard input (then closed), `environment` added to this process's.
public func runEkctl(
  _ arguments: [String], input: String? = nil, environment: [String: String] = [:]
) throws -> ProcessResult {
  try runProgram(
    BuildProducts.executable("ekctl"), arguments, input: input,
    environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
}

/// Runs `executable` to its end with exactly `environment`: `input` on its standard input
/// (then closed), its standard output and error read side by side, so that neither pipe
/// fills while the other is waited on.
public func runProgram(
  _ executable: URL, _ arguments: [String], input: String?, environment: [String: String]
) throws -> ProcessResult {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.environment = environment
  let stdout = Pipe()
  let stderr = Pipe()
  let stdin = Pipe()
  process.standardOutput = stdout
  process.standardError = stderr
  process.standardInput = stdin
  try process.run()
  let errors = Mutex(Data())
  let errorsRead = DispatchSemaphore(value: 0)
  let errorHandle = stderr.fileHandleForReading
  Thread.detachNewThread {
    let data = errorHandle.readDataToEndOfFile()
    errors.withLock { $0 = data }
    errorsRead.signal()
  }
  if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
  try stdin.fileHandleForWriting.close()
  let out = stdout.fileHandleForReading.readDataToEndOfFile()
  errorsRead.wait()
  process.waitUntilExit()
  return ProcessResult(
    status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
    stderr: String(decoding: errors.withLock { $0 }, as: UTF8.self))
}
