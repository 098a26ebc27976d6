import Foundation
import Testing

@testable import CalDAV

/// Reading multistatus bodies as other servers write them (prefixes of their own, pretty
/// printing, CRs as character references), and bodies no server should send.
@Suite struct MultistatusTests {
  let base = URL(string: "https://dav.example.com/cal/user/work/")!

  @Test func readsAPrettyPrintedReportWithOtherPrefixes() throws {
    let xml = """
      <?xml version="1.0" encoding="utf-8"?>
      <d:multistatus xmlns:d="DAV:" xmlns:cal="urn:ietf:params:xml:ns:caldav"
          xmlns:x1="http://apple.com/ns/ical/" xmlns:cs="http://calendarserver.org/ns/">
        <d:response>
          <d:href>/cal/user/work/a%20b.ics</d:href>
          <d:propstat>
            <d:prop>
              <d:getetag>"e1"</d:getetag>
              <cal:calendar-data>BEGIN:VCALENDAR&#13;
      BEGIN:VEVENT&#13;
      UID:a b&#13;
      SUMMARY:Tom &amp; &lt;Jerry&gt;  &amp;&#13;
      DESCRIPTION:a long line&#13;
        folded&#13;
      END:VEVENT&#13;
      END:VCALENDAR&#13;
      </cal:calendar-data>
            </d:prop>
            <d:status>HTTP/1.1 200 OK</d:status>
          </d:propstat>
        </d:response>
        <d:response>
          <d:href>https://dav.example.com/cal/user/work/gone.ics</d:href>
          <d:status>HTTP/1.1 404 Not Found</d:status>
        </d:response>
        <d:response>
          <d:href>
            /cal/user/work/
          </d:href>
          <d:propstat>
            <d:prop>
              <d:resourcetype>
                <d:collection/>
                <cal:calendar/>
              </d:resourcetype>
              <x1:calendar-color symbolic-color="custom">#00FF00FF</x1:calendar-color>
              <cs:getctag>ctag-1</cs:getctag>
              <d:current-user-privilege-set>
                <d:privilege><d:read/></d:privilege>
                <d:privilege><d:write-content/></d:privilege>
              </d:current-user-privilege-set>
              <cal:supported-calendar-component-set>
                <cal:comp name="VEVENT"/>
                <cal:comp name="vtodo"/>
              </cal:supported-calendar-component-set>
            </d:prop>
            <d:status>HTTP/1.1 200 OK</d:status>
          </d:propstat>
          <d:propstat>
            <d:prop><d:displayname/></d:prop>
            <d:status>HTTP/1.1 404 Not Found</d:status>
          </d:propstat>
        </d:response>
        <d:sync-token>http://example.com/sync/2</d:sync-token>
      </d:multistatus>
      """
    let multistatus = try Multistatus.parse(Data(xml.utf8), from: base)
    #expect(multistatus.syncToken == "http://example.com/sync/2")
    #expect(multistatus.responses.count == 3)

    let event = multistatus.responses[0]
    let url = try #require(CalDAVClient.resolve(event.hrefs[0], against: base))
    #expect(url.path(percentEncoded: false) == "/cal/user/work/a b.ics")
    #expect(event.found.etag == #""e1""#)
    let data = CalDAVClient.crlf(try #require(event.found.calendarData))
    #expect(
      data == "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a b\r\nSUMMARY:Tom & <Jerry>  &\r\n"
        + "DESCRIPTION:a long line\r\n  folded\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")

    let gone = multistatus.responses[1]
    #expect(gone.status == 404)
    #expect(CalDAVClient.resolve(gone.hrefs[0], against: base)?.host() == "dav.example.com")

    let collection = multistatus.responses[2]
    #expect(collection.hrefs == ["/cal/user/work/"])
    let properties = collection.found
    #expect(properties.resourceTypes == ["collection", "calendar"])
    #expect(properties.calendarColor == "#00FF00FF")
    #expect(properties.ctag == "ctag-1")
    #expect(properties.privileges == ["read", "write-content"])
    #expect(properties.components == ["VEVENT", "VTODO"])
    #expect(properties.displayName == nil)
  }

  @Test func namesTheRefusedPreconditions() {
    let body = #"<?xml version="1.0"?><D:error xmlns:D="DAV:"><D:valid-sync-token/></D:error>"#
    #expect(preconditions(in: Data(body.utf8)) == ["valid-sync-token"])
    #expect(preconditions(in: Data("Forbidden".utf8)).isEmpty)
    #expect(preconditions(in: Data()).isEmpty)
  }

  /// Bodies that are not a multistatus are `malformed`, never a trap: text, truncated XML,
  /// nesting deeper than the parser allows, entity expansion, odd content in known elements.
  @Test func hostileBodiesAreMalformedOrEmpty() throws {
    let deep =
      String(repeating: "<a>", count: 1_000_000) + String(repeating: "</a>", count: 1_000_000)
    let laughs = """
      <?xml version="1.0"?>
      <!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
      <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
      <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
      <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]>
      <multistatus xmlns="DAV:"><response><href>&h;</href></response></multistatus>
      """
    for body in [
      "", "Not found", "<multistatus xmlns=\"DAV:\"><response>", deep, "\u{0}\u{1}\u{2}",
    ] {
      #expect(throws: CalDAVError.self, "\(body.prefix(40))") {
        _ = try Multistatus.parse(Data(body.utf8), from: base)
      }
    }
    // Either refused or read; what matters is that it ends.
    _ = try? Multistatus.parse(Data(laughs.utf8), from: base)

    let odd = """
      <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
        <response><propstat><prop><getetag>"x"</getetag></prop></propstat></response>
        <response><href>/ok</href><propstat><prop>
          <resourcetype>text</resourcetype>
          <current-user-privilege-set>none</current-user-privilege-set>
          <C:supported-calendar-component-set><C:comp/></C:supported-calendar-component-set>
          <C:calendar-home-set><other/></C:calendar-home-set>
        </prop><status>nonsense</status></propstat></response>
        <response><href>javascript:alert(1)</href><status>HTTP/1.1 200 OK</status></response>
      </multistatus>
      """
    let multistatus = try Multistatus.parse(Data(odd.utf8), from: base)
    #expect(multistatus.responses.count == 3)
    #expect(multistatus.responses[0].hrefs.isEmpty)
    let properties = multistatus.responses[1].found
    #expect(properties.resourceTypes?.contains("calendar") != true)
    #expect(properties.privileges?.contains("write") != true)
    #expect(properties.calendarHomeSet?.isEmpty ?? true)
    #expect(CalDAVClient.resolve("javascript:alert(1)", against: base) == nil)
  }

  @Test func requestBodiesEscapeWhatTheyInsert() {
    let body = String(
      decoding: RequestBodies.makeCalendar(
        displayName: "A & B <\"c\"> 'd'\u{1}", color: "#FF0000", components: ["VTODO", "VEVENT"]),
      as: UTF8.self)
    #expect(
      body.contains("<D:displayname>A &amp; B &lt;&quot;c&quot;&gt; &apos;d&apos;</D:displayname>"))
    #expect(body.contains(#"<C:comp name="VEVENT"/><C:comp name="VTODO"/>"#))
    let sync = String(decoding: RequestBodies.syncCollection(token: "a<b"), as: UTF8.self)
    #expect(sync.contains("<D:sync-token>a&lt;b</D:sync-token>"))
    #expect(CalDAVClient.entityTag("abc") == #""abc""#)
    #expect(CalDAVClient.entityTag(#"W/"abc""#) == #"W/"abc""#)
  }
}
