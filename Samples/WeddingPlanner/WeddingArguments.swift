import ArgumentParser
import Foundation

// The commands' arguments, read by swift-argument-parser before a command runs: options
// (`--vendor "Sweet Things"`) come anywhere among the words, and a day and a time are typed
// in as many words as they take (`fri 15:00`).

/// `wedding <date> <place> ... [--zone <tz>]`.
struct SetWedding: ParsableArguments {
  @Argument(help: "The day, such as 2027-06-12.") var date: String
  @Argument(help: "The venue, in as many words as its name.") var place: [String]
  @Option(
    help: ArgumentHelp("The venue's time zone when it is not yours.", valueName: "tz"),
    transform: { try WeddingCommands.zone($0) })
  var zone: TimeZone?
}

/// `ceremony <time>`.
struct CeremonyTime: ParsableArguments {
  @Argument(help: "The time of day at the venue, such as 15:00 or 3pm.") var time: String
}

/// `add <kind> <when> ... [--vendor <name>] [--at <place>]`.
struct AddAppointment: ParsableArguments {
  @Argument(help: "One word: venue-visit, tasting, florist, rehearsal, ….") var kind: String
  @Argument(help: "A day and a time, such as fri 15:00.") var when: [String]
  @Option(help: ArgumentHelp("Who it is with.", valueName: "name")) var vendor: String?
  @Option(
    name: .customLong("at"),
    help: ArgumentHelp("Where, when it is not at the vendor's.", valueName: "place"))
  var place: String?
}

/// `fittings <start> ...`.
struct FittingsStart: ParsableArguments {
  @Argument(help: "The first fitting's day and time, such as 2027-04-05 18:00.")
  var start: [String]
}

/// `move-fitting <n> <when> ...`, `fittings-from <n> <when> ...`.
struct MoveFitting: ParsableArguments {
  @Argument(help: "The fitting's number, as the fittings' table shows it.") var n: String
  @Argument(help: "The new day and time, such as 2027-04-14 18:00.") var when: [String]
}

/// `cancel-fitting <n>`, `cancel-fittings-from <n>`.
struct FittingNumber: ParsableArguments {
  @Argument(help: "The fitting's number, as the fittings' table shows it.") var n: String
}

/// `show <n>`, `edit <n>`, `done <n>`, `cancel <n>`.
struct ItemNumber: ParsableArguments {
  @Argument(help: "The item's number, as 'plan' lists them.") var n: String
}
