import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Reads an XML answer in one streaming pass of Foundation's parser (libxml2's push parser),
/// handing over each child of the root element once it is closed, as a small tree, and
/// keeping nothing of it after: a listing of 100,000 members never stands in memory as one
/// tree, and reading it takes time in proportion to its size.
///
/// Why it is written so:
/// - The body is fed to the parser in pieces (an `InputStream`), not whole: given a body in
///   one piece, libxml2 refuses any over 10,000,000 bytes ("Huge input lookup",
///   `NSXMLParserErrorDomain` code 1), far below the 64 MB the client reads.
/// - An element's text is appended in place as the parser hands it over, in pieces of a few
///   hundred bytes; building a new string for each piece makes reading quadratic (an 8 MB
///   calendar-data took 40 s).
/// - A body that declares a DTD (`<!DOCTYPE`) is refused before it is parsed: no CalDAV
///   server sends one, and its entities are how XML expands without bound or reads files.
///   libxml2 (as Foundation sets it up) neither loads external entities nor expands
///   entities without bound either, as a second wall.
/// - Nesting deeper than ``maximumDepth`` is refused as it is read.
enum XMLReader {
  /// An element: its local name and namespace (the prefix a server chose does not matter),
  /// attributes, child elements and text. The root's text is not kept (only white space
  /// between its children, in any answer a client reads).
  struct Element: Sendable {
    var name: String
    var namespace: String
    var attributes: [String: String]
    var children: [Element] = []
    var text = ""

    /// The children with this local name, in order.
    func children(_ name: String) -> [Element] { children.filter { $0.name == name } }
    /// The first child with this local name.
    func child(_ name: String) -> Element? { children.first { $0.name == name } }
  }

  /// Deeper than any multistatus or DAV:error (about eight levels), far from the stack's end.
  static let maximumDepth = 64

  /// Reads `data`, calling `each` with every child of the root as it closes; returns the
  /// root's local name. Throws ``XMLFault`` when `data` is not well-formed XML, declares a
  /// DTD or nests too deep.
  static func read(_ data: Data, each: @escaping (Element) -> Void) throws(XMLFault) -> String {
    if let refused = prolog(of: data) { throw XMLFault(refused, line: 1, start: data) }
    return try parse(InputStream(data: data), start: data, each: each)
  }

  /// Reads `stream` (whose prolog, `start`, has been checked), calling `each` with every
  /// child of the root as it closes, and `root` with the root's local name as it starts;
  /// returns the root's local name.
  static func parse(
    _ stream: InputStream, start data: Data, each: @escaping (Element) -> Void,
    root started: ((String) -> Void)? = nil
  ) throws(XMLFault) -> String {
    let reader = Delegate(each: each, root: started)
    let parser = XMLParser(stream: stream)
    parser.shouldProcessNamespaces = true
    parser.externalEntityResolvingPolicy = .never
    parser.delegate = reader
    let finished = parser.parse()
    if reader.tooDeep { throw XMLFault(.tooDeep, line: parser.lineNumber, start: data) }
    if let error = parser.parserError as NSError? {
      throw XMLFault(code: error.code, line: parser.lineNumber, start: data)
    }
    guard finished, let root = reader.root else {
      throw XMLFault(
        reader.root == nil ? .notXML : .truncated, line: parser.lineNumber, start: data)
    }
    guard reader.depth == 0 else {
      throw XMLFault(.truncated, line: parser.lineNumber, start: data)
    }
    return root
  }

  /// What the prolog (before the root element: a byte order mark, the XML declaration,
  /// comments, processing instructions, white space) says is wrong: a DTD
  /// (``XMLFault/Kind/declaresEntities``), or HTML's `<!DOCTYPE html>` (a login or error page,
  /// ``XMLFault/Kind/notXML``); nil when it holds neither.
  static func prolog(of data: Data) -> XMLFault.Kind? {
    let bytes = data.prefix(64 << 10)
    var index = bytes.startIndex
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
    func skip(past end: String) {
      index = bytes[index...].firstRange(of: Array(end.utf8))?.upperBound ?? bytes.endIndex
    }
    while index < bytes.endIndex {
      let rest = bytes[index...]
      if [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
        index += 1
      } else if rest.starts(with: Array("<?".utf8)) {
        skip(past: "?>")
      } else if rest.starts(with: Array("<!--".utf8)) {
        skip(past: "-->")
      } else {
        let start = String(decoding: rest.prefix(14), as: UTF8.self).lowercased()
        if start.hasPrefix("<!doctype html") { return .notXML }
        return start.hasPrefix("<!doctype") ? .declaresEntities : nil
      }
    }
    return nil
  }

  /// Builds the tree of the root's current child on a stack, one entry per open element.
  private final class Delegate: NSObject, XMLParserDelegate {
    let each: (Element) -> Void
    let started: ((String) -> Void)?
    var root: String?
    var open: [Element] = []
    var depth = 0
    var tooDeep = false

    init(each: @escaping (Element) -> Void, root started: ((String) -> Void)?) {
      self.each = each
      self.started = started
    }

    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String] = [:]
    ) {
      depth += 1
      guard depth <= XMLReader.maximumDepth else {
        tooDeep = true
        parser.abortParsing()
        return
      }
      if depth == 1 {
        root = elementName
        started?(elementName)
        return
      }
      open.append(
        Element(name: elementName, namespace: namespaceURI ?? "", attributes: attributes))
    }

    func parser(
      _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
      qualifiedName: String?
    ) {
      depth -= 1
      guard let element = open.popLast() else { return }
      if open.isEmpty {
        each(element)
      } else {
        open[open.count - 1].children.append(element)
      }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      guard !open.isEmpty else { return }
      open[open.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
      guard !open.isEmpty else { return }
      open[open.count - 1].text += String(decoding: block, as: UTF8.self)
    }
  }
}
