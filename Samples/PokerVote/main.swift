// poker-vote: players suggest times for poker night and vote on them, in a shared calendar.
//
// A sample of OpenEventKit (OpenEventKitApp.docc/PokerVote.md): each suggested time is an event titled
// "Poker" in the shared "Poker" calendar, and its votes are kept in the event itself, so that
// every player's process (and every calendar app) sees the same standings. Players vote at the
// same moment from several processes without losing a vote: a vote is written with
// OpenEventKit's `saveIfUnchanged` and retried when someone else wrote first. The EventKit calls
// are the sample's own (access in CalendarAccess.swift, other players' changes in
// StoreChanges.swift); what every sample shares (the REPL, the app's database, the calendar
// choice and views) is OpenEventKitApp.
//
//   poker-vote [--now <iso-date-time>] [--player <name>]
import OpenEventKitApp

let app = AppInfo(
  name: "poker-vote", prompt: "poker> ", database: "poker.sqlite",
  about: "Suggests times for poker night and votes on them in a shared \"Poker\" calendar.")

app.run(diagnostics: .standardError, options: PlayerOption.self) { session, options in
  PokerCommands(session: session, player: options.player ?? .loginName).all
}
