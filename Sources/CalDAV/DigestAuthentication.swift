import Crypto
import Foundation

/// One challenge of a `WWW-Authenticate` header (RFC 9110 §11.6.1): its scheme, lower-cased,
/// and its parameters, names lower-cased, values unquoted.
package struct AuthenticationChallenge: Sendable, Equatable {
  package let scheme: String
  package let parameters: [String: String]

  package init(scheme: String, parameters: [String: String]) {
    self.scheme = scheme
    self.parameters = parameters
  }

  /// The challenges of every `WWW-Authenticate` header value given, in order. A header may
  /// hold several (`Basic realm="a", Digest realm="b", nonce="c"`). What cannot be read is
  /// skipped, never trapped on.
  package static func parse(_ values: [String]) -> [AuthenticationChallenge] {
    var challenges: [AuthenticationChallenge] = []
    for value in values {
      var scanner = Scanner(Array(value.unicodeScalars))
      var scheme: String?
      var parameters: [String: String] = [:]
      while !scanner.atEnd {
        scanner.skip { $0 == " " || $0 == "\t" || $0 == "," }
        guard let token = scanner.token(), !token.isEmpty else {
          scanner.advance()  // a stray character: step over it
          continue
        }
        scanner.skip { $0 == " " || $0 == "\t" }
        if scanner.peek == "=", scheme != nil {
          scanner.advance()
          scanner.skip { $0 == " " || $0 == "\t" }
          let value = scanner.peek == "\"" ? scanner.quoted() : (scanner.token() ?? "")
          parameters[token.lowercased()] = value
          // A token68 (`Negotiate abc==`) leaves '=' behind: skip to the next comma.
          scanner.skip { $0 != "," }
        } else {
          if let scheme { challenges.append(.init(scheme: scheme, parameters: parameters)) }
          scheme = token.lowercased()
          parameters = [:]
          if scanner.peek == "=" { scanner.skip { $0 != "," } }
        }
      }
      if let scheme { challenges.append(.init(scheme: scheme, parameters: parameters)) }
    }
    return challenges
  }

  private struct Scanner {
    let scalars: [Unicode.Scalar]
    var index = 0
    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }
    var atEnd: Bool { index >= scalars.count }
    var peek: Unicode.Scalar? { atEnd ? nil : scalars[index] }
    mutating func advance() { if !atEnd { index += 1 } }
    mutating func skip(while condition: (Unicode.Scalar) -> Bool) {
      while let scalar = peek, condition(scalar) { index += 1 }
    }
    /// A token: anything up to white space, '=', ',' or '"'.
    mutating func token() -> String? {
      let start = index
      skip { !($0 == " " || $0 == "\t" || $0 == "=" || $0 == "," || $0 == "\"") }
      return start == index ? nil : String(String.UnicodeScalarView(scalars[start..<index]))
    }
    /// A quoted string from its opening quote, with its backslash escapes undone; an
    /// unterminated one runs to the end.
    mutating func quoted() -> String {
      advance()
      var text = String.UnicodeScalarView()
      while let scalar = peek {
        advance()
        if scalar == "\"" { break }
        if scalar == "\\", let escaped = peek {
          advance()
          text.append(escaped)
        } else {
          text.append(scalar)
        }
      }
      return String(text)
    }
  }
}

/// HTTP Digest authentication (RFC 7616) as a client answers it: the server's challenge kept
/// for the requests that follow, the nonce count advanced with each, a fresh cnonce each time.
package struct DigestAuthentication: Sendable {
  package enum Algorithm: String, Sendable, CaseIterable {
    case md5 = "MD5"
    case md5Session = "MD5-sess"
    case sha256 = "SHA-256"
    case sha256Session = "SHA-256-sess"

    var isSession: Bool { self == .md5Session || self == .sha256Session }

    /// The hash of `text`'s UTF-8, in lower-case hex as the header carries it (§3.4.1).
    func hash(_ text: String) -> String {
      switch self {
      case .md5, .md5Session: Insecure.MD5.hash(data: Data(text.utf8)).lowercaseHex
      case .sha256, .sha256Session: SHA256.hash(data: Data(text.utf8)).lowercaseHex
      }
    }

    /// Stronger algorithms first, for choosing among several challenges.
    var strength: Int {
      switch self {
      case .sha256, .sha256Session: 2
      case .md5, .md5Session: 1
      }
    }
  }

  package let realm: String
  package let nonce: String
  package let opaque: String?
  package let algorithm: Algorithm
  /// "auth" or "auth-int" when the server offers a quality of protection; nil for RFC 2069's
  /// form without one.
  package let qop: String?
  package let userhash: Bool
  /// The nonce count of the last request answered with this nonce.
  package private(set) var nonceCount: UInt32 = 0

  /// The strongest Digest challenge among `challenges` that this client can answer, or nil.
  package static func best(of challenges: [AuthenticationChallenge]) -> DigestAuthentication? {
    challenges.compactMap(DigestAuthentication.init(challenge:))
      .max { $0.algorithm.strength < $1.algorithm.strength }
  }

  /// Reads a Digest challenge; nil when it is another scheme, lacks a nonce, or names an
  /// algorithm or quality of protection this client does not know.
  package init?(challenge: AuthenticationChallenge) {
    guard challenge.scheme == "digest", let nonce = challenge.parameters["nonce"] else {
      return nil
    }
    let name = challenge.parameters["algorithm"] ?? "MD5"
    guard
      let algorithm = Algorithm.allCases.first(where: {
        $0.rawValue.lowercased() == name.lowercased()
      })
    else { return nil }
    if let offered = challenge.parameters["qop"] {
      let qops = offered.split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces).lowercased()
      }
      if qops.contains("auth") {
        qop = "auth"
      } else if qops.contains("auth-int") {
        qop = "auth-int"
      } else {
        return nil
      }
    } else {
      qop = nil
    }
    self.realm = challenge.parameters["realm"] ?? ""
    self.nonce = nonce
    self.opaque = challenge.parameters["opaque"]
    self.algorithm = algorithm
    self.userhash = challenge.parameters["userhash"]?.lowercased() == "true"
  }

  /// Whether the server said the nonce had merely expired (stale=true): then the credentials
  /// were right and the request is repeated with the new nonce.
  package static func isStale(_ challenge: AuthenticationChallenge) -> Bool {
    challenge.parameters["stale"]?.lowercased() == "true"
  }

  /// The `Authorization` header value for one request, advancing the nonce count.
  package mutating func authorization(
    method: String, uri: String, body: Data?, user: String, password: String,
    cnonce: String = DigestAuthentication.freshCnonce()
  ) -> String {
    nonceCount &+= 1
    return Self.response(
      algorithm: algorithm, realm: realm, nonce: nonce, opaque: opaque, qop: qop,
      userhash: userhash, nonceCount: nonceCount, cnonce: cnonce, method: method, uri: uri,
      body: body, user: user, password: password)
  }

  /// The header value of RFC 7616 §3.4 for these values; separate from the state so that
  /// the RFC's examples (§3.9.1) can be checked.
  package static func response(
    algorithm: Algorithm, realm: String, nonce: String, opaque: String?, qop: String?,
    userhash: Bool, nonceCount: UInt32, cnonce: String, method: String, uri: String,
    body: Data?, user: String, password: String
  ) -> String {
    let count = String(nonceCount, radix: 16)
    let nc = String(repeating: "0", count: max(0, 8 - count.count)) + count
    var secret = algorithm.hash("\(user):\(realm):\(password)")
    if algorithm.isSession { secret = algorithm.hash("\(secret):\(nonce):\(cnonce)") }
    let requestPart =
      qop == "auth-int"
      ? algorithm.hash(
        "\(method):\(uri):\(algorithm.hash(String(decoding: body ?? Data(), as: UTF8.self)))")
      : algorithm.hash("\(method):\(uri)")
    let answer =
      qop.map { algorithm.hash("\(secret):\(nonce):\(nc):\(cnonce):\($0):\(requestPart)") }
      ?? algorithm.hash("\(secret):\(nonce):\(requestPart)")
    let name = userhash ? algorithm.hash("\(user):\(realm)") : user
    var fields = [
      "username=\(quote(name))", "realm=\(quote(realm))", "uri=\(quote(uri))",
      "algorithm=\(algorithm.rawValue)", "nonce=\(quote(nonce))",
    ]
    if let qop { fields += ["nc=\(nc)", "cnonce=\(quote(cnonce))", "qop=\(qop)"] }
    fields.append("response=\(quote(answer))")
    if let opaque { fields.append("opaque=\(quote(opaque))") }
    if userhash { fields.append("userhash=true") }
    return "Digest " + fields.joined(separator: ", ")
  }

  /// 16 random bytes in hexadecimal.
  package static func freshCnonce() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }.lowercaseHex
  }

  private static func quote(_ value: String) -> String {
    var quoted = "\""
    for character in value {
      if character == "\"" || character == "\\" { quoted.append("\\") }
      // A line break would end the header: never send one.
      if character == "\r" || character == "\n" { continue }
      quoted.append(character)
    }
    return quoted + "\""
  }
}

extension Sequence<UInt8> {
  /// Lower-case hexadecimal, two digits a byte: as Digest authentication writes its hashes
  /// (RFC 7616 §3.4.1), and as OpenEventKitSync's resource names carry a UID's SHA-256.
  package var lowercaseHex: String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(underestimatedCount * 2)
    for byte in self {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
