import Foundation
import Logging
import MCP

#if canImport(Glibc)
  import Glibc
#endif

/// JSON-RPC lines on standard input and output, as the SDK's `StdioTransport` speaks them,
/// but waiting in the kernel rather than polling.
///
/// `StdioTransport` (swift-sdk 0.12.1) sets its descriptors non-blocking and, when a read
/// finds nothing or a write finds the pipe full, sleeps 10 ms and tries again. A request
/// waited up to 10 ms to be seen, and an answer larger than the pipe's 64 kB (a month of
/// events is about 100 kB) waited 10 ms more for each time the pipe filled: on a quiet
/// machine `list_events` over a month took 22–23 ms for 8 ms of the server's own work
/// (docs/PERFORMANCE.md, `ekbench mcp`). Here a thread of its own blocks in `read`, and each
/// answer is written whole from a queue of its own, `poll` waiting for room when the
/// descriptor was left non-blocking by whoever made it.
actor PipeTransport: Transport {
  nonisolated let logger: Logger
  private let input: Int32
  private let output: Int32
  private let writes = DispatchQueue(label: "ekctl-mcp.PipeTransport.writes")
  private let stream: AsyncThrowingStream<Data, any Error>
  private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
  private var reader: Thread?

  init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, logger: Logger) {
    self.input = input
    self.output = output
    self.logger = logger
    (stream, continuation) = AsyncThrowingStream.makeStream()
  }

  func connect() async throws {
    guard reader == nil else { return }
    let (input, continuation, logger) = (self.input, self.continuation, self.logger)
    let thread = Thread { Self.readLines(from: input, into: continuation, logger: logger) }
    thread.name = "ekctl-mcp stdin"
    thread.start()
    reader = thread
  }

  func disconnect() async {
    continuation.finish()
  }

  func send(_ data: Data) async throws {
    var message = data
    message.append(UInt8(ascii: "\n"))
    let (line, output) = (message, self.output)
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
      writes.async {
        do {
          try Self.writeAll(line, to: output)
          done.resume()
        } catch {
          done.resume(throwing: error)
        }
      }
    }
  }

  func receive() -> AsyncThrowingStream<Data, any Error> { stream }

  /// Reads until the end of the input, yielding each non-empty line without its newline.
  private static func readLines(
    from descriptor: Int32, into continuation: AsyncThrowingStream<Data, any Error>.Continuation,
    logger: Logger
  ) {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    var pending = Data()
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN || errno == EWOULDBLOCK {
          waitFor(POLLIN, on: descriptor)
          continue
        }
        let error = MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
        logger.error("reading standard input failed: \(error)")
        continuation.finish(throwing: error)
        return
      }
      guard count > 0 else { break }
      pending.append(contentsOf: buffer[..<count])
      var start = pending.startIndex
      while let end = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
        if end > start { continuation.yield(Data(pending[start..<end])) }
        start = end + 1
      }
      pending.removeSubrange(pending.startIndex..<start)
    }
    continuation.finish()
  }

  private static func writeAll(_ data: Data, to descriptor: Int32) throws {
    try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
      var offset = 0
      while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written >= 0 {
          offset += written
        } else if errno == EINTR {
          continue
        } else if errno == EAGAIN || errno == EWOULDBLOCK {
          waitFor(POLLOUT, on: descriptor)
        } else {
          throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
        }
      }
    }
  }

  /// Waits in the kernel until `descriptor` is ready for `event` (or has hung up).
  private static func waitFor(_ event: Int32, on descriptor: Int32) {
    var entry = pollfd(fd: descriptor, events: Int16(event), revents: 0)
    _ = poll(&entry, 1, -1)
  }
}
