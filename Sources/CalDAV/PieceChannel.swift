import Foundation
import Synchronization

/// The pieces of one answer's body, handed from the task that reads the connection to the
/// one that parses them, one at a time: ``put(_:)`` returns once its piece is taken, so at
/// most one piece waits between them.
///
/// The request's side puts pieces and closes with its status (or its failure); the reader's
/// side asks the status (``head()``), then takes pieces until ``next()`` gives nil, or gives
/// up with ``fail()``, after which every ``put(_:)`` throws and the request stops.
final class PieceChannel: Sendable {
  private struct State {
    var piece: [UInt8]?
    /// The request, waiting for its piece to be taken.
    var putter: CheckedContinuation<Void, any Error>?
    /// The reader, waiting for a piece.
    var taker: CheckedContinuation<[UInt8]?, any Error>?
    /// The reader, waiting for the status.
    var waitingForHead: CheckedContinuation<(code: Int, body: Data), any Error>?
    /// A piece has come: the answer is a 207 being streamed.
    var streaming = false
    /// How the request ended: its status and the body of a status not streamed.
    var closed: Result<(code: Int, body: Data), any Error>?
    /// The reader gave up.
    var failed = false
  }

  /// Thrown to the request by ``put(_:)`` once the reader has given up.
  struct ReaderGaveUp: Error {}

  private let state = Mutex(State())

  /// Hands `piece` to the reader and waits until it takes it.
  func put(_ piece: [UInt8]) async throws {
    try await withCheckedThrowingContinuation { (putter: CheckedContinuation<Void, any Error>) in
      enum Then {
        case fail
        case handed(
          CheckedContinuation<[UInt8]?, any Error>?,
          CheckedContinuation<(code: Int, body: Data), any Error>?)
      }
      let then = state.withLock { state -> Then in
        if state.failed { return .fail }
        state.streaming = true
        let head = state.waitingForHead
        state.waitingForHead = nil
        if let taker = state.taker {
          state.taker = nil
          return .handed(taker, head)
        }
        state.piece = piece
        state.putter = putter
        return .handed(nil, head)
      }
      switch then {
      case .fail: putter.resume(throwing: ReaderGaveUp())
      case .handed(let taker, let head):
        head?.resume(returning: (207, Data()))
        if let taker {
          taker.resume(returning: piece)
          putter.resume()
        }
      }
    }
  }

  /// The request's end: the answer's status, and its body when it was not streamed.
  func close(status: Int, body: Data) {
    finish(.success((status, body)))
  }

  /// The request's failure.
  func close(failure: any Error) {
    finish(.failure(failure))
  }

  private func finish(_ outcome: Result<(code: Int, body: Data), any Error>) {
    let (taker, head) = state.withLock { state in
      state.closed = outcome
      defer {
        state.taker = nil
        state.waitingForHead = nil
      }
      return (state.taker, state.waitingForHead)
    }
    switch outcome {
    case .success(let status):
      taker?.resume(returning: nil)
      head?.resume(returning: status)
    case .failure(let error):
      taker?.resume(throwing: error)
      head?.resume(throwing: error)
    }
  }

  /// The answer's status: 207 as soon as a piece comes (its body is then read with
  /// ``next()``), or any status with its whole body when the request ends, or its failure.
  func head() async throws -> (code: Int, body: Data) {
    try await withCheckedThrowingContinuation {
      (waiter: CheckedContinuation<(code: Int, body: Data), any Error>) in
      let now = state.withLock { state -> Result<(code: Int, body: Data), any Error>? in
        if state.streaming { return .success((207, Data())) }
        if let closed = state.closed { return closed }
        state.waitingForHead = waiter
        return nil
      }
      if let now { waiter.resume(with: now) }
    }
  }

  /// The next piece, waiting for it; nil at the answer's end. Throws the request's failure.
  func next() async throws -> [UInt8]? {
    try await withCheckedThrowingContinuation { (taker: CheckedContinuation<[UInt8]?, any Error>) in
      let (now, putter) = state.withLock {
        state -> (Result<[UInt8]?, any Error>?, CheckedContinuation<Void, any Error>?) in
        if let piece = state.piece {
          state.piece = nil
          defer { state.putter = nil }
          return (.success(piece), state.putter)
        }
        if let closed = state.closed {
          switch closed {
          case .success: return (.success(nil), nil)
          case .failure(let error): return (.failure(error), nil)
          }
        }
        state.taker = taker
        return (nil, nil)
      }
      putter?.resume()
      if let now { taker.resume(with: now) }
    }
  }

  /// The reader gives up: the request's waiting piece, and any it puts after, fail.
  func fail() {
    let putter = state.withLock { state in
      state.failed = true
      state.piece = nil
      defer { state.putter = nil }
      return state.putter
    }
    putter?.resume(throwing: ReaderGaveUp())
  }
}
