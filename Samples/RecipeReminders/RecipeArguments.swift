import ArgumentParser

// The commands' arguments, read by swift-argument-parser before a command runs. Names are
// typed in as many words as they have, without quotes: a list and an item
// (`check chocolate cake dark chocolate`) are one run of words, which `NameWords` splits
// against the recipes' names, so each command takes its words as one array, at least as
// many as it needs.

/// `recipe`, `list`, `delete-list`: a recipe's name.
struct RecipeName: ParsableArguments {
  @Argument(help: "The recipe's name, such as crêpes or chocolate cake.") var name: [String]
}

/// `add-recipe [<name> ...]`: the name, or nothing to be asked for it.
struct NewRecipeName: ParsableArguments {
  @Argument(help: "The new recipe's name; asked for when not given.") var name: [String] = []
}

/// `shop <recipe> ... [--no-batch]`.
struct Shop: ParsableArguments {
  @Argument(help: "The recipe whose shopping list to make.") var recipe: [String]
  @Flag(help: "Commit item by item rather than in one commit.") var noBatch = false
}

/// `check`, `uncheck`: a list, then an item.
struct ListItem: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "The list, then the item: check chocolate cake dark chocolate.", valueName: "list item"))
  var words: [String]

  func validate() throws { try NameWords.require(words, 2, "the list, then the item") }
}

/// `due`: a list, an item, then when.
struct Due: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "The list, the item, then when: due crêpes milk fri 18:00.", valueName: "list item when"))
  var words: [String]

  func validate() throws { try NameWords.require(words, 3, "the list, the item, then when") }
}

/// `near`: a list, an item, a place, its latitude and longitude, and a radius in metres. Every
/// word is taken as it is, so that a negative coordinate (`-33.86`) is no option.
struct Near: ParsableArguments {
  @Argument(
    parsing: .allUnrecognized,
    help: ArgumentHelp(
      "The list, the item, the place, then LAT LON [RADIUS]: near crêpes milk \"Corner shop\" "
        + "48.8584 2.2945 150.",
      valueName: "list item place lat lon [radius]"))
  var words: [String]

  func validate() throws {
    try NameWords.require(words, 5, "the list, the item, the place, then LAT LON [RADIUS]")
  }
}

/// `repeat`: a list, an item, then how.
struct Repeat: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "The list, the item, then weekly, monthly or never.", valueName: "list item how"))
  var words: [String]

  func validate() throws {
    try NameWords.require(words, 3, "the list, the item, then weekly, monthly or never")
  }
}
