"""Digital-table sheets: Tabletop Simulator decks and a generic sprite sheet (:mod:`cardgen.tabletop.decks`),
drawn from the cards' plans (:mod:`cardgen.cards`); the build's producer that names and writes them is
:mod:`cardgen.build.tabletop`."""
