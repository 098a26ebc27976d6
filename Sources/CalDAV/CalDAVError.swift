import Foundation

/// Every way a CalDAV exchange fails. The cases the sync engine handles by kind
/// (`preconditionFailed`, `invalidSyncToken`, `uidConflict`, `notFound`) carry nothing, so that
/// `catch CalDAVError.preconditionFailed` matches them.
package enum CalDAVError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The server answered 401 to the credentials given (or to none it would accept).
  case unauthorized(URL)
  /// No answer: the host and port, and why (connection refused, timed out, name unknown…).
  case unreachable(String)
  /// The resource or collection is not on the server (404 or 410).
  case notFound
  /// A conditional write or removal found another version on the server (412).
  case preconditionFailed
  /// Plain `http://` to a host other than this machine: the password would cross the network
  /// in clear.
  case insecure(URL)
  /// A URL with a user name or password in it (`https://bob:secret@host/`): kept, it would be
  /// stored with the account and shown wherever the URL is. The URL is not carried, so that
  /// no message repeats the password.
  case credentialsInURL
  /// A redirect, a principal, a calendar home or a calendar on another origin (scheme, host
  /// and port) than the URL the person named: `what` led from `named` to `leadsTo`. Nothing
  /// was sent there, the password least of all; the message says how to add the account
  /// there, for a person who trusts it.
  case otherOrigin(what: String, named: URL, leadsTo: URL, user: String)
  /// The HTTPS server's certificate is not trusted (unknown authority, expired, another
  /// host's): the host and port, and why.
  case untrustedCertificate(String)
  /// The server no longer accepts the sync token given (RFC 6578 §3.2 valid-sync-token).
  case invalidSyncToken
  /// A write refused because another resource of the collection holds the item's UID
  /// (CALDAV:no-uid-conflict, RFC 4791 §5.3.2.1); servers name no such resource.
  case uidConflict
  /// The server does not offer a report or method the client needs.
  case unsupported(String)
  /// Any other refusal: the status, the URL, and the start of what the server said.
  case server(status: Int, url: URL, excerpt: String)
  /// A response that cannot be read as what was asked for.
  case malformed(String)
  /// An answer from this URL larger than the client reads at once (`limit` bytes).
  case answerTooLarge(URL, limit: Int)
  /// An answer from this URL that is not readable XML, and why.
  case unreadableXML(URL, XMLFault)

  package var description: String {
    switch self {
    case .unauthorized(let url):
      return
        "the server refused the user name or password (401 from \(url.absoluteString)); "
        + "check them and try again"
    case .unreachable(let reason):
      return "the server cannot be reached: \(reason); check the URL and that the server is running"
    case .notFound:
      return "the resource is not on the server (404); it may have been removed meanwhile"
    case .preconditionFailed:
      return
        "the server has another version of the resource (412 Precondition Failed); "
        + "it changed on the server since the last sync"
    case .insecure(let url):
      return
        "refusing to send a password in clear to \(url.absoluteString): plain http:// is only "
        + "allowed to this machine (127.0.0.1, ::1, localhost); use https://"
    case .credentialsInURL:
      return
        "the URL holds a user name or password (the part before @), which would be kept and "
        + "shown with it; give the URL without them, and the user and password apart"
    case .otherOrigin(let what, let named, let url, let user):
      let there = Origin(url)?.description ?? url.absoluteString
      let here = Origin(named)?.description ?? named.absoluteString
      return
        "\(what) leads to \(there), another server than the \(here) you named; the password is "
        + "sent only to the server you name, so nothing was sent there. If you trust \(there), "
        + "add the account by that URL: ekctl account add --url \(Self.shellWord(url.absoluteString)) "
        + "--user \(Self.shellWord(user))"
    case .untrustedCertificate(let reason):
      return
        "the server's certificate is not trusted: \(reason); if the server has a certificate "
        + "of its own, name its PEM file in SSL_CERT_FILE or add it to the system's "
        + "(update-ca-certificates)"
    case .invalidSyncToken:
      return
        "the server no longer accepts the sync token (valid-sync-token); a full sync is needed"
    case .uidConflict:
      return "another resource on the server holds the item's UID (no-uid-conflict)"
    case .unsupported(let what):
      return "the server does not support \(what)"
    case .server(let status, let url, let excerpt):
      let said = excerpt.isEmpty ? "" : ": \(excerpt)"
      return "the server answered \(status) to \(url.absoluteString)\(said)"
    case .malformed(let what):
      return "the server's response cannot be read: \(what)"
    case .answerTooLarge(let url, let limit):
      return
        "the answer from \(url.absoluteString) is larger than \(limit >> 20) MB, the most read "
        + "at once"
    case .unreadableXML(let url, let fault):
      return "the answer from \(url.absoluteString) is not readable XML: \(fault)"
    }
  }

  /// A word as a shell reads it back: as it is when it holds only safe characters, otherwise
  /// in single quotes.
  package static func shellWord(_ text: String) -> String {
    let safe = CharacterSet(
      charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-")
    if !text.isEmpty, text.unicodeScalars.allSatisfy(safe.contains) { return text }
    return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
