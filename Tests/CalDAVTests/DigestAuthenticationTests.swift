import Foundation
import TestSupport
import Testing

@testable import CalDAV

/// Digest authentication: RFC 7616's own example, challenge parsing, and the client through
/// a proxy that demands Digest in front of Radicale, the proxy itself checked against curl.
@Suite struct DigestAuthenticationTests {
  /// RFC 7616 §3.9.1: the same request answered with MD5 and with SHA-256.
  @Test(arguments: [
    (DigestAuthentication.Algorithm.md5, "8ca523f5e9506fed4657c9700eebdbec"),
    (.sha256, "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"),
  ])
  func rfc7616Example(algorithm: DigestAuthentication.Algorithm, response: String) {
    let header = DigestAuthentication.response(
      algorithm: algorithm, realm: "http-auth@example.org",
      nonce: "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v",
      opaque: "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS", qop: "auth", userhash: false,
      nonceCount: 1, cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", method: "GET",
      uri: "/dir/index.html", body: nil, user: "Mufasa", password: "Circle of Life")
    #expect(
      header == """
        Digest username="Mufasa", realm="http-auth@example.org", uri="/dir/index.html", \
        algorithm=\(algorithm.rawValue), nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", \
        nc=00000001, cnonce="f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", qop=auth, \
        response="\(response)", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"
        """)
  }

  /// RFC 7616 §3.9.1's challenges, both in one header as a server may send them, with a
  /// Basic one before: the strongest Digest is chosen, and the nonce count advances.
  @Test func parsesChallengesAndChoosesTheStrongest() throws {
    let header = """
      Basic realm="x, y", Digest realm="http-auth@example.org", qop="auth, auth-int", \
      algorithm=MD5, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", \
      opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS", Digest \
      realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, \
      nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", \
      opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS", stale=TRUE
      """
    let challenges = AuthenticationChallenge.parse([header])
    #expect(challenges.map(\.scheme) == ["basic", "digest", "digest"])
    #expect(challenges[0].parameters == ["realm": "x, y"])
    #expect(challenges[2].parameters["qop"] == "auth, auth-int")
    #expect(DigestAuthentication.isStale(challenges[2]))
    #expect(!DigestAuthentication.isStale(challenges[1]))
    var digest = try #require(DigestAuthentication.best(of: challenges))
    #expect(digest.algorithm == .sha256)
    #expect(digest.qop == "auth")
    #expect(digest.realm == "http-auth@example.org")
    let first = digest.authorization(method: "GET", uri: "/", body: nil, user: "u", password: "p")
    let second = digest.authorization(method: "GET", uri: "/", body: nil, user: "u", password: "p")
    #expect(first.contains("nc=00000001") && second.contains("nc=00000002"))
    #expect(first.contains(#"opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#))
  }

  @Test func oddHeadersDoNotTrap() {
    let odd = [
      "", ",,,", "Digest", "Digest nonce", "Digest nonce=", #"Digest nonce="unterminated"#,
      #"Digest realm="a\"b\\c", nonce=abc, algorithm=UNKNOWN"#, "Negotiate abc==, Digest nonce=x",
      "=====", #"Digest qop="auth-conf", nonce="n""#, "\u{0}\u{1}", "Digest nonce=\"é\", realm=ü",
    ]
    for header in odd {
      let challenges = AuthenticationChallenge.parse([header])
      _ = DigestAuthentication.best(of: challenges)
    }
    let escaped = AuthenticationChallenge.parse([#"Digest realm="a\"b\\c", nonce=abc"#])
    #expect(escaped.first?.parameters["realm"] == #"a"b\c"#)
    #expect(escaped.first?.parameters["nonce"] == "abc")
    #expect(
      DigestAuthentication.best(
        of: AuthenticationChallenge.parse([#"Digest qop="auth-conf", nonce="n""#])) == nil)
    #expect(
      DigestAuthentication.best(
        of: AuthenticationChallenge.parse(["Negotiate abc==, Digest nonce=x"]))?.nonce == "x")
  }

  /// Discovery, a calendar, writes and a sync through the proxy, with each algorithm; the
  /// proxy lets nothing through without a right Digest answer.
  @Test(arguments: ["MD5", "SHA-256"])
  func throughADigestProxy(algorithm: String) async throws {
    let server = try RadicaleServer()
    let proxy = try DigestProxy(for: server.url, algorithm: algorithm)
    let client = try CalDAVClient(baseURL: proxy.url, user: "alice", password: "alice")
    do {
      let calendar = try await client.makeCalendar(
        home: proxy.url.appendingPathComponent("alice/"), displayName: "Digest", color: nil,
        components: ["VEVENT"])
      let discovery = try await client.discover()
      #expect(discovery.homeURL.path(percentEncoded: false) == "/alice/")
      #expect(discovery.homeURL.port == proxy.process.port)
      #expect(discovery.calendars.map(\.url) == [calendar])
      let used = client.digest.withLock { $0?.algorithm.rawValue }
      #expect(used == algorithm)

      // Several requests at once share the challenge, each with its own nonce count.
      try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<8 {
          group.addTask {
            // Names to percent-encode, which the signed uri must match.
            _ = try await client.put(
              calendar.appendingPathComponent("d \(index)@ü.ics"), data: event(uid: "d\(index)"),
              ifMatch: nil)
          }
        }
        try await group.waitForAll()
      }
      let changes = try await client.syncCollection(calendar, token: nil)
      #expect(changes.changed.count == 8)
    } catch {
      await client.shutdown()
      throw error
    }
    await client.shutdown()

    let wrong = try CalDAVClient(baseURL: proxy.url, user: "alice", password: "wrong")
    await #expect(throws: CalDAVError.self) { _ = try await wrong.discover() }
    do {
      _ = try await wrong.calendars(home: proxy.url.appendingPathComponent("alice/"))
    } catch let error as CalDAVError {
      #expect(error == .unauthorized(proxy.url.appendingPathComponent("alice/")))
    }
    await wrong.shutdown()
  }

  /// The proxy is checked against a Digest client not written here: curl's own (`--digest`),
  /// with each algorithm, is let through with alice's password and refused with another. So
  /// the client's passing the proxy above says it answers as other clients do, not only as
  /// the proxy's author read RFC 7616.
  @Test(arguments: ["MD5", "SHA-256"])
  func theProxyTakesCurlsDigest(algorithm: String) throws {
    let server = try RadicaleServer()
    let proxy = try DigestProxy(for: server.url, algorithm: algorithm)
    func curl(password: String) throws -> ProcessResult {
      try runProgram(
        try Programs.path("curl", package: "curl"),
        [
          "--silent", "--show-error", "--digest", "--user", "alice:\(password)",
          "--request", "PROPFIND", "--header", "Depth: 0", "--output", "/dev/null",
          "--write-out", "%{http_code}", proxy.url.appendingPathComponent("alice/").absoluteString,
        ], input: nil, environment: ProcessInfo.processInfo.environment)
    }
    let right = try curl(password: "alice")
    #expect(right.status == 0 && right.stdout == "207", "\(right)")
    let wrong = try curl(password: "wrong")
    #expect(wrong.status == 0 && wrong.stdout == "401", "\(wrong)")
  }

  /// A nonce that goes stale after two requests: the client takes the new one and goes on.
  @Test func aStaleNonceIsRenewed() async throws {
    let server = try RadicaleServer()
    let proxy = try DigestProxy(for: server.url, algorithm: "SHA-256", staleAfter: 2)
    let client = try CalDAVClient(baseURL: proxy.url, user: "alice", password: "alice")
    do {
      let home = proxy.url.appendingPathComponent("alice/")
      let calendar = try await client.makeCalendar(
        home: home, displayName: "Stale", color: nil, components: ["VEVENT"])
      var nonces: Set<String> = []
      for index in 0..<5 {
        _ = try await client.put(
          calendar.appendingPathComponent("s\(index).ics"), data: event(uid: "s\(index)"),
          ifMatch: nil)
        if let nonce = client.digest.withLock({ $0?.nonce }) { nonces.insert(nonce) }
      }
      #expect(nonces.count >= 3)
      #expect(try await client.etags(calendar).count == 5)
    } catch {
      await client.shutdown()
      throw error
    }
    await client.shutdown()
  }
}
