// Package lang translates what members read: the bot's messages and errors,
// the pictures' captions and alt texts, the text board, the piece names. It
// speaks English, Dutch, German and French, chosen from a member's Discord
// locale.
//
// # Keys are the English texts
//
// Code writes each text once, in English, as a format string with numbered
// arguments ("%[1]s · after move %[2]d"), kept as a constant whose name starts
// with txt in the package that shows it. That English text is the key: a
// Printer looks it up in its language's catalogue and formats the arguments
// into the translation, which may reorder them. This is golang.org/x/text's
// message catalogue, the way `gotext` works, so the code reads like English
// and a missing translation can only show English, never a wrong text.
//
// # Catalogues
//
// locales/<language>.json maps each key to its translation, or, for a text
// with a count, to its plural forms ({"one": …, "other": …}, and "few" or
// "many" where the language's rules have them). The count is always the
// first argument, and the language's CLDR plural rules choose the form: in
// French "0 coup", in Dutch "0 zetten". en.json holds only the English
// plural forms.
//
// TestCatalogueComplete reads the sources of every package that shows text
// (render, bot, and game, whose refusal reasons are game.Text keys),
// collects each txt constant, and fails when a language lacks one, keeps one
// that is no longer used, or changes its arguments. It also fails when code
// hands a Printer a literal instead of a txt constant, the one way a text
// could escape the catalogue unnoticed.
//
// # French elision
//
// A French translation writes "le Drapeau de %[2]s" without knowing the
// name it will hold; a French Printer elides that "de" (and "que", and the
// article "le") before an argument that starts with a vowel ("le Drapeau
// d'Ada", "l'Éclaireur"), as French is written. A square or a move ("A4",
// "E5-E6") keeps its "de".
//
// # Numbers and identifiers
//
// A Printer writes numbers the language's way (1,234 in English, 1.234 in
// Dutch and German, 1 234 in French). Identifiers that only look like numbers
// (match numbers, squares, snowflakes) are passed as strings so they are
// never grouped.
//
// # Hidden information
//
// A translation changes words, never what a text says: each one must use
// exactly the arguments of its English key, so a translated text cannot carry
// anything the English one does not. The leak tests of render and bot run in
// every language.
package lang
