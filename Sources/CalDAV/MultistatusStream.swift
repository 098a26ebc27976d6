import Foundation
import Synchronization

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A DAV:multistatus read while its answer comes, piece by piece, handing over each
/// DAV:response once it is closed: a sync report of 100,000 members with their calendar data
/// (about 90 MB from Radicale) is read without ever being held whole, and its resources are
/// written as they come (issue 48).
///
/// Foundation's parser pulls its input from an `InputStream` and has no way to be pushed
/// pieces, so it runs on a thread of its own, reading from a stream that waits for the next
/// piece; ``feed(_:)`` gives it one and waits (without holding a thread) until the parser has
/// read all of it and asks for more. One piece is in the parser at a time: the answer is read
/// no faster than it is parsed, and what is held is that piece, the response being read and
/// the responses closed since the last ``feed(_:)``.
///
/// The prolog is checked as ``XMLReader/read(_:each:)`` checks it (no DTD, no HTML), on the
/// first 64 KB, before the parser sees anything.
///
/// Call ``finish()`` after the last piece, or ``cancel()`` when giving up: either ends the
/// parser's thread.
final class MultistatusStream: Sendable {
  private struct State {
    /// Pieces given and not yet read by the parser; `offset` bytes of the first are read.
    var pieces: [[UInt8]] = []
    var offset = 0
    /// No more pieces: the parser reads the end of the answer.
    var ended = false
    /// Given up: the parser reads an error.
    var cancelled = false
    /// The parser waits for a piece (on `wake`).
    var idle = false
    /// The parser has returned; `outcome` says how.
    var finished = false
    var outcome: Result<String, XMLFault>?
    /// Who waits for the parser to read everything given, or to finish.
    var waiter: CheckedContinuation<Void, Never>?
    /// Responses closed since they were last taken.
    var responses: [Response] = []
    var syncToken: String?
    /// The root element's local name, once it has started.
    var root: String?
  }

  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)
  /// The first bytes, held until there are enough to check the prolog (64 KB or the end).
  private let head = Mutex<(bytes: [UInt8], checked: Bool)>(([], false))
  private static let prologSize = 64 << 10

  /// Starts the parser's thread; it waits for the first piece.
  init() {
    let thread = Thread { [self] in run() }
    thread.name = "org.openeventkit.caldav.multistatus"
    thread.start()
  }

  /// What the parser closed while reading the pieces given so far.
  struct Progress {
    var responses: [Response]
    /// The root's local name, once it has started ("multistatus" in any answer of use).
    var root: String?
    /// The parser stopped (a fault, or the answer's end): ``finish()`` says which.
    var finished: Bool
  }

  /// Gives the parser `piece` and waits until it has read it; the responses it closed
  /// meanwhile. Throws the prolog's fault (a DTD, HTML) without giving the parser anything.
  func feed(_ piece: [UInt8]) async throws(XMLFault) -> Progress {
    let ready: [UInt8]? = try head.withLock { (head) throws(XMLFault) -> [UInt8]? in
      if head.checked { return piece }
      head.bytes += piece
      guard head.bytes.count >= Self.prologSize else { return nil }
      return try Self.checked(&head)
    }
    if let ready, !ready.isEmpty { await give(ready) }
    return take()
  }

  /// Ends the input and waits for the parser: the root's local name, the report's sync token
  /// and the responses closed since the last ``feed(_:)``, or the answer's fault.
  func finish() async throws(XMLFault) -> (root: String, syncToken: String?, last: [Response]) {
    let rest = try head.withLock { (head) throws(XMLFault) -> [UInt8] in
      head.checked ? [] : try Self.checked(&head)
    }
    if !rest.isEmpty { await give(rest) }
    let signal = state.withLock { state -> Bool in
      state.ended = true
      return Self.wakeParser(&state)
    }
    if signal { wake.signal() }
    await waitForParser(untilFinished: true)
    let (outcome, token, last) = state.withLock { state in
      defer { state.responses = [] }
      return (state.outcome, state.syncToken, state.responses)
    }
    switch outcome {
    case .success(let root): return (root, token, last)
    case .failure(let fault): throw fault
    case nil: throw XMLFault(.truncated, line: 0, start: Data())
    }
  }

  /// Gives up: the parser reads an error, and its thread ends. Safe at any time, and twice.
  func cancel() {
    let signal = state.withLock { state -> Bool in
      state.cancelled = true
      return Self.wakeParser(&state)
    }
    if signal { wake.signal() }
  }

  /// The held first bytes, their prolog checked, marked as given.
  private static func checked(_ head: inout (bytes: [UInt8], checked: Bool)) throws(XMLFault)
    -> [UInt8]
  {
    head.checked = true
    let bytes = head.bytes
    head.bytes = []
    if let refused = XMLReader.prolog(of: Data(bytes)) {
      throw XMLFault(refused, line: 1, start: Data(bytes.prefix(400)))
    }
    return bytes
  }

  /// Whether the parser waits and must be woken (it is then no longer idle).
  private static func wakeParser(_ state: inout State) -> Bool {
    guard state.idle else { return false }
    state.idle = false
    return true
  }

  private func give(_ piece: [UInt8]) async {
    let signal = state.withLock { state -> Bool in
      guard !state.finished else { return false }
      state.pieces.append(piece)
      return Self.wakeParser(&state)
    }
    if signal { wake.signal() }
    await waitForParser(untilFinished: false)
  }

  private func take() -> Progress {
    state.withLock { state in
      defer { state.responses = [] }
      return Progress(responses: state.responses, root: state.root, finished: state.finished)
    }
  }

  /// Waits until the parser has read every piece given and waits for more, or has finished.
  private func waitForParser(untilFinished: Bool) async {
    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
      let now = state.withLock { state -> Bool in
        if state.finished || (!untilFinished && state.idle && state.pieces.isEmpty) {
          return true
        }
        state.waiter = waiter
        return false
      }
      if now { waiter.resume() }
    }
  }

  // MARK: The parser's thread

  private func run() {
    let input = PieceStream(next: { [self] buffer, length in read(into: buffer, length) })
    let outcome: Result<String, XMLFault>
    do throws(XMLFault) {
      let root = try XMLReader.parse(input, start: Data()) { [self] element in
        state.withLock { state in
          switch element.name {
          case "response": state.responses.append(Response(element))
          case "sync-token":
            let token = Multistatus.trimmed(element.text)
            state.syncToken = token.isEmpty ? nil : token
          default: break
          }
        }
      } root: { [self] name in
        state.withLock { $0.root = name }
      }
      outcome = .success(root)
    } catch {
      outcome = .failure(error)
    }
    let waiter = state.withLock { state in
      state.finished = true
      state.outcome = outcome
      state.pieces = []
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  /// The parser's read: the next bytes given, waiting for them; 0 at the end, -1 when
  /// cancelled.
  private func read(into buffer: UnsafeMutablePointer<UInt8>, _ length: Int) -> Int {
    while true {
      var waiter: CheckedContinuation<Void, Never>?
      let count: Int? = state.withLock { state in
        if state.cancelled { return -1 }
        if let piece = state.pieces.first {
          let count = min(length, piece.count - state.offset)
          piece.withUnsafeBufferPointer {
            buffer.update(from: $0.baseAddress! + state.offset, count: count)
          }
          state.offset += count
          if state.offset == piece.count {
            state.pieces.removeFirst()
            state.offset = 0
          }
          return count
        }
        if state.ended { return 0 }
        state.idle = true
        waiter = state.waiter
        state.waiter = nil
        return nil
      }
      waiter?.resume()
      if let count { return count }
      wake.wait()
    }
  }
}

/// An `InputStream` whose bytes come from a function that may wait for them: what
/// Foundation's parser reads in ``MultistatusStream``.
private final class PieceStream: InputStream {
  private let next: (UnsafeMutablePointer<UInt8>, Int) -> Int

  init(next: @escaping (UnsafeMutablePointer<UInt8>, Int) -> Int) {
    self.next = next
    super.init(data: Data())
  }

  override func open() {}
  override func close() {}
  override var hasBytesAvailable: Bool { true }
  override var streamStatus: Stream.Status { .open }
  override var streamError: (any Error)? { nil }

  override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
    next(buffer, length)
  }
}
