import Dispatch
import Foundation

/// The signals of a command that runs until stopped (`ekctl alarms --watch`, `ekctl sync
/// --watch`): SIGTERM or Ctrl-C stops it and SIGUSR1 runs `wake`, even when it was started
/// by a process that blocks them (a test runner does; the mask is inherited).
///
/// SIGUSR1's handler is in place before the signal is unblocked, so that a SIGUSR1 sent at
/// once (by a store that found the agent's lock) never meets its default action, which ends
/// the process. Keep the returned source for as long as `wake` should run.
package func handlingWakeSignal(_ wake: @escaping @Sendable () -> Void) -> any DispatchSourceSignal
{
  signal(SIGUSR1, SIG_IGN)
  let source = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: .global())
  source.setEventHandler(handler: wake)
  source.resume()
  var signals = sigset_t()
  sigemptyset(&signals)
  for number in [SIGTERM, SIGINT, SIGUSR1] { sigaddset(&signals, number) }
  pthread_sigmask(SIG_UNBLOCK, &signals, nil)
  return source
}
