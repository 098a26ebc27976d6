/// The recipes the book starts with, written into the app's database on its first run (the
/// migration "starter recipes"), each with its ingredients in the order they are used.
enum StarterRecipes {
  static let all: [(name: String, ingredients: [Ingredient])] = [
    (
      "Chocolate cake",
      [
        Ingredient("dark chocolate", "200 g"), Ingredient("butter", "150 g"),
        Ingredient("sugar", "150 g"), Ingredient("eggs", "4"), Ingredient("flour", "80 g"),
        Ingredient("cocoa powder", "2 tbsp"), Ingredient("baking powder", "1 tsp"),
        Ingredient("salt", "a pinch"),
      ]
    ),
    (
      "Crêpes",
      [
        Ingredient("flour", "250 g"), Ingredient("eggs", "4"), Ingredient("milk", "50 cl"),
        Ingredient("butter", "50 g"), Ingredient("sugar", "1 tbsp"),
        Ingredient("salt", "a pinch"),
      ]
    ),
    (
      "Guacamole",
      [
        Ingredient("avocados", "3"), Ingredient("lime", "1"), Ingredient("red onion", "1/2"),
        Ingredient("tomato", "1"), Ingredient("coriander", "a small bunch"),
        Ingredient("green chili", "1"), Ingredient("salt", "to taste"),
      ]
    ),
    (
      "Ratatouille",
      [
        Ingredient("aubergine", "1"), Ingredient("courgettes", "2"),
        Ingredient("red peppers", "2"), Ingredient("onions", "2"),
        Ingredient("tomatoes", "4"), Ingredient("garlic", "3 cloves"),
        Ingredient("olive oil", "4 tbsp"), Ingredient("thyme", "2 sprigs"),
      ]
    ),
    (
      "Spaghetti carbonara",
      [
        Ingredient("spaghetti", "400 g"), Ingredient("guanciale", "150 g"),
        Ingredient("egg yolks", "4"), Ingredient("pecorino romano", "60 g"),
        Ingredient("black pepper", "to taste"),
      ]
    ),
    (
      "Banana bread",
      [
        Ingredient("ripe bananas", "3"), Ingredient("flour", "250 g"),
        Ingredient("brown sugar", "100 g"), Ingredient("butter", "80 g"),
        Ingredient("eggs", "2"), Ingredient("baking soda", "1 tsp"),
        Ingredient("walnuts", "50 g"),
      ]
    ),
    (
      "Tomato soup",
      [
        Ingredient("tomatoes", "1 kg"), Ingredient("onion", "1"),
        Ingredient("garlic", "2 cloves"), Ingredient("vegetable stock", "50 cl"),
        Ingredient("cream", "10 cl"), Ingredient("basil", "a few leaves"),
      ]
    ),
    (
      "Quiche lorraine",
      [
        Ingredient("shortcrust pastry", "1 sheet"), Ingredient("smoked bacon", "200 g"),
        Ingredient("eggs", "3"), Ingredient("crème fraîche", "20 cl"),
        Ingredient("milk", "20 cl"), Ingredient("nutmeg", "a pinch"),
      ]
    ),
    (
      "Lemonade",
      [
        Ingredient("lemons", "6"), Ingredient("sugar", "150 g"),
        Ingredient("sparkling water", "1 l"), Ingredient("mint", "a few leaves"),
      ]
    ),
    (
      "Pancakes",
      [
        Ingredient("flour", "200 g"), Ingredient("milk", "30 cl"), Ingredient("eggs", "2"),
        Ingredient("baking powder", "2 tsp"), Ingredient("butter", "30 g"),
        Ingredient("maple syrup", "to serve"),
      ]
    ),
  ]
}
