import Foundation

/// Asks for a password on the controlling terminal, without echoing it; nil when there is no
/// terminal to ask on (a script, a service), so that the caller can say what to do instead.
enum TerminalPassword {
  static func ask(_ prompt: String) -> String? {
    let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC)
    guard terminal >= 0 else { return nil }
    defer { close(terminal) }
    var saved = termios()
    guard tcgetattr(terminal, &saved) == 0 else { return nil }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO)
    _ = Data(prompt.utf8).withUnsafeBytes { write(terminal, $0.baseAddress, $0.count) }
    tcsetattr(terminal, TCSAFLUSH, &quiet)
    defer {
      tcsetattr(terminal, TCSAFLUSH, &saved)
      _ = write(terminal, "\n", 1)
    }
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while read(terminal, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
