import Foundation
import Synchronization

/// The open `changes` sequences of a store.
final class ChangeStreams: Sendable {
  private let continuations = Mutex<[UUID: AsyncStream<Void>.Continuation]>([:])

  func makeStream() -> AsyncStream<Void> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let id = UUID()
    continuations.withLock { $0[id] = continuation }
    continuation.onTermination = { [weak self] _ in
      _ = self?.continuations.withLock { $0.removeValue(forKey: id) }
    }
    return stream
  }

  func yield() {
    for continuation in continuations.withLock({ Array($0.values) }) { continuation.yield() }
  }

  deinit {
    for continuation in continuations.withLock({ Array($0.values) }) { continuation.finish() }
  }
}
