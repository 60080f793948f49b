package bot

// Discord's limits on what the bot sends, in one place. Discord refuses a
// message or a reply that passes one, rather than cutting it, so the bot
// cuts or leaves out first.
const (
	// maxMessage is the most characters Discord takes in a message.
	maxMessage = 2000

	// maxChoices is Discord's limit on autocomplete choices, and on a
	// select menu's options.
	maxChoices = 25

	// maxChoiceName is the longest name of an autocomplete choice.
	maxChoiceName = 100

	// maxOptionText is the longest label, and the longest value, of a
	// select menu's option.
	maxOptionText = 100

	// maxThreadName is the longest name a thread may have.
	maxThreadName = 100

	// maxModalTitle is the longest title of a form (modal).
	maxModalTitle = 45

	// maxTextInput is the most characters a form's text field holds.
	maxTextInput = 4000

	// maxReplayGIF is the largest replay animation attached to a finished
	// game's message: under Discord's upload limit of 10 MiB a file, with
	// room to spare; a larger one is left out, the final picture still sent.
	maxReplayGIF = 9 << 20
)
