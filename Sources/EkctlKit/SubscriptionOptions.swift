import ArgumentParser
import Foundation

/// `ekctl subscribe`: what it is called, says and takes. `ekctl` keeps the word in its command
/// tree and runs `ekctl-sync` for it, which fetches the feed; both build their command from
/// this.
package struct SubscribeOptions: ParsableArguments {
  package static let configuration = CommandConfiguration(
    commandName: "subscribe",
    abstract: "Subscribe to a calendar published as an .ics feed (webcal://, https://).",
    discussion: """
      Fetches the feed and adds a read-only calendar of its events (public holidays, a \
      team's rota, a fixture list, a timetable), named --name, else by the feed, else by its \
      host. `ekctl sync` and the sync agent (`ekctl sync --watch`) fetch it again every \
      --refresh, else as often as the feed asks (REFRESH-INTERVAL, X-PUBLISHED-TTL), else \
      daily; a feed that has not changed costs one short request. A feed that fails keeps \
      the events it last gave, and `ekctl subscriptions` says why. Plain http:// is refused \
      except to this machine.
      """)

  @Argument(help: "The feed's URL: webcal://, https:// (or http:// to this machine).")
  package var url: String

  @Option(help: "What to call the calendar (default: the feed's name, else its host).")
  package var name: String?

  @Option(
    help: ArgumentHelp(
      "How often to fetch it: 90s, 30m, 1h, 1d or 1w (default: as the feed asks, else daily).",
      valueName: "interval"),
    transform: { text throws in try RefreshInterval.seconds(text) })
  package var refresh: TimeInterval?

  @Option(help: ArgumentHelp("The calendar's colour, #RRGGBB.", valueName: "#RRGGBB"))
  package var color: String?

  @OptionGroup package var store: StoreOptions

  package init() {}

  package func validate() throws {
    if let color {
      let digits = color.hasPrefix("#") ? color.dropFirst() : Substring(color)
      guard digits.count == 6, digits.allSatisfy(\.isHexDigit) else {
        throw ValidationError("--color takes #RRGGBB, such as #FF9500")
      }
    }
    if let name, name.trimmingCharacters(in: .whitespaces).isEmpty {
      throw ValidationError("--name cannot be blank")
    }
  }

  /// The colour as the store keeps it: `#RRGGBB`, upper-cased.
  package var normalizedColor: String? {
    color.map { "#" + ($0.hasPrefix("#") ? $0.dropFirst() : Substring($0)).uppercased() }
  }
}

/// `ekctl subscriptions`.
package struct SubscriptionsOptions: ParsableArguments {
  package static let configuration = CommandConfiguration(
    commandName: "subscriptions",
    abstract: "List your subscribed calendars: their feeds, last and next refresh, last error.")

  @OptionGroup package var store: StoreOptions

  @Flag(help: "Print JSON Lines, one subscription a line, instead of text.")
  package var json = false

  package init() {}
}

/// `ekctl unsubscribe`.
package struct UnsubscribeOptions: ParsableArguments {
  package static let configuration = CommandConfiguration(
    commandName: "unsubscribe",
    abstract: "Remove a subscribed calendar and its events from your store.")

  @Argument(help: "The calendar's name (`ekctl subscriptions` lists them).")
  package var name: String

  @OptionGroup package var store: StoreOptions

  package init() {}
}

/// An interval as `--refresh` takes it: a whole number and a unit (s, m, h, d, w), or
/// seconds alone.
package enum RefreshInterval {
  static let units: [Character: TimeInterval] = [
    "s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800,
  ]

  package static func seconds(_ text: String) throws -> TimeInterval {
    let text = text.trimmingCharacters(in: .whitespaces).lowercased()
    var digits = Substring(text)
    var unit: TimeInterval = 1
    if let last = text.last, let scale = units[last] {
      digits = text.dropLast()
      unit = scale
    }
    guard let count = Int(digits), count > 0, count <= 10_000 else {
      throw ValidationError(
        "\"\(text)\" is not an interval: a whole number and s, m, h, d or w, such as 30m or 1h")
    }
    return TimeInterval(count) * unit
  }

  /// An interval as ekctl says it: the largest unit that divides it, `90s` else.
  package static func text(_ seconds: TimeInterval) -> String {
    let whole = Int(seconds.rounded())
    for (unit, size) in [("w", 604_800), ("d", 86_400), ("h", 3_600), ("m", 60)]
    where whole >= size && whole % size == 0 {
      return "\(whole / size)\(unit)"
    }
    return "\(whole)s"
  }
}
