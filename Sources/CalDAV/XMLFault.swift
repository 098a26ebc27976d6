import Foundation

/// What is wrong with an answer that is not readable XML, in words a person can act on.
///
/// Foundation's parser reports libxml2's error number alone (`NSXMLParserErrorDomain
/// Code=9 "(null)"`); the numbers are sorted here into what they mean to someone syncing:
/// an answer cut short, a character that does not belong, entities refused, nesting refused,
/// a piece too long, or not XML at all.
package struct XMLFault: Error, Sendable, Equatable, CustomStringConvertible {
  package enum Kind: Sendable, Equatable {
    /// Not XML at all: empty, or text or HTML of another kind.
    case notXML
    /// It ends before its root element does.
    case truncated
    /// A character XML does not allow, or bytes that are not of the encoding declared.
    case invalidCharacter
    /// A DTD, or entities other than XML's five (`&nbsp;`, or a loop of them).
    case declaresEntities
    /// Nesting deeper than ``XMLReader/maximumDepth``.
    case tooDeep
    /// One piece (a CDATA section, a tag, a name) longer than libxml2 takes: 10,000,000
    /// bytes without `XML_PARSE_HUGE`, which Foundation's parser does not set.
    case tooLong
    /// Any other fault of form, by libxml2's number (`xmlParserErrors`).
    case other(code: Int)
  }

  package var kind: Kind
  /// The line of the answer where the parser stopped.
  package var line: Int
  /// The answer's first words, for ``Kind/notXML``; empty otherwise.
  package var start: String

  init(_ kind: Kind, line: Int, start data: Data) {
    self.kind = kind
    self.line = line
    start = kind == .notXML ? CalDAVClient.excerpt(data) : ""
  }

  /// libxml2's error number (`XMLParser.ErrorCode` uses the same) sorted by meaning.
  init(code: Int, line: Int, start data: Data) {
    let kind: Kind =
      switch code {
      case 1: .tooLong  // "Huge input lookup": one piece over 10,000,000 bytes
      case 3, 4: .notXML  // the document does not start, or is empty
      case 5, 37, 45, 47, 61, 63, 77: .truncated  // ends in a document, comment, tag, CDATA…
      case 6, 7, 8, 9, 31, 32, 81: .invalidCharacter  // characters, references, encodings
      case 26, 27, 28, 29, 88, 89, 90: .declaresEntities  // undeclared, external, loops
      default: .other(code: code)
      }
    self.init(kind, line: line, start: data)
  }

  package var description: String {
    let line = "line \(line)"
    switch kind {
    case .notXML:
      let begins = start.isEmpty ? "it is empty" : "it begins “\(start)”"
      return
        "it is not XML (\(begins)); the URL may not be a CalDAV server's, or a proxy or "
        + "login page answered in its place: check the URL"
    case .truncated:
      return
        "it ends in the middle (\(line)), as when a connection is cut short; sync again, and "
        + "if it happens every time, the server or a proxy in front of it is cutting its "
        + "answers: tell its administrator"
    case .invalidCharacter:
      return
        "it holds a character XML does not allow, or bytes not of its encoding (\(line)), a "
        + "fault of the server (often an item whose text holds a control character); sync "
        + "again, and if it happens every time, tell the server's administrator"
    case .declaresEntities:
      return
        "it declares or uses XML entities (a DTD, or names such as &nbsp;), which no CalDAV "
        + "server sends and which can expand without end or read files, so it was refused; "
        + "check that the URL is your CalDAV server's"
    case .tooDeep:
      return
        "it nests elements more than \(XMLReader.maximumDepth) deep, which no CalDAV answer "
        + "does, so it was refused; check that the URL is your CalDAV server's"
    case .tooLong:
      return
        "one piece of it (a CDATA section or a tag, \(line)) is over 10 MB, more than the XML "
        + "reader takes; an item that large cannot be synced: shrink it or remove it on the "
        + "server"
    case .other(let code):
      return
        "it is not well-formed XML (libxml2 error \(code), \(line)), a fault of the server; "
        + "sync again, and if it happens every time, tell the server's administrator"
    }
  }
}
