package storage

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"

	"github.com/strategobot/strategobot/game"
)

// MaxSavedSetups bounds a player's saved set-ups, keeping the record small.
const MaxSavedSetups = 50

// PlayerSettings is what the bot remembers of one Discord user.
type PlayerSettings struct {
	UserID string
	// Version increases with every change.
	Version uint64
	// Numbering is how ranks are shown to the player.
	Numbering game.Numbering
	// NoReminders turns deadline reminders off (the zero value keeps them on).
	NoReminders bool
	// NoOwnMoves turns off the DM board after the player's own moves: the
	// answer to the move suffices.
	NoOwnMoves bool
	// Locale is the Discord locale the member's client last reported
	// ("nl", "en-GB"); it chooses the language of what the bot sends them
	// outside an answer to an interaction. Empty until they first interact.
	Locale string
	// DMChannel is the id of the bot's DM channel with the player, once
	// opened: it never changes, and opening one is rate-limited by Discord,
	// so it is kept across restarts.
	DMChannel string
	// DMBlockedAt is when a DM to the player last failed because they do not
	// accept DMs from the bot (Discord error 50007); zero when DMs reach them.
	DMBlockedAt time.Time
	// Setups are the set-ups saved by name, sorted by name.
	Setups []SavedSetup
	// Defaults names the set-up to propose first, per variant.
	Defaults map[game.Variant]string
	// Vacations are the player's vacations of this year and the last, oldest
	// first: when each began and ended (or is planned to end).
	Vacations []Vacation
	// LinkGen is the generation of the player's web board links: every link
	// carries the generation it was signed at, and revoking the player's
	// links (Store.RevokeLinks) bumps it, so that older links are refused.
	LinkGen uint32
}

// SavedSetup is a set-up a player keeps under a name. It is hidden information.
type SavedSetup struct {
	Name    string
	Variant game.Variant
	Army    game.Army // the army it was made for (matters for Custom)
	Setup   game.Setup
	Saved   time.Time
}

// Clone returns a deep copy of p.
func (p *PlayerSettings) Clone() *PlayerSettings {
	c := *p
	c.Setups = slices.Clone(p.Setups)
	c.Defaults = maps.Clone(p.Defaults) // nil stays nil
	c.Vacations = slices.Clone(p.Vacations)
	return &c
}

// DMsReach reports whether DMs to the player are believed to arrive.
func (p *PlayerSettings) DMsReach() bool { return p.DMBlockedAt.IsZero() }

// SavedSetup returns the set-up saved under name (case-insensitive).
func (p *PlayerSettings) SavedSetup(name string) (SavedSetup, bool) {
	for _, s := range p.Setups {
		if strings.EqualFold(s.Name, name) {
			return s, true
		}
	}
	return SavedSetup{}, false
}

// Why SaveSetup refuses a set-up; both are ErrInvalid.
var (
	ErrSetupName     = fmt.Errorf("a set-up name has 1 to 100 characters: %w", ErrInvalid)
	ErrTooManySetups = fmt.Errorf("at most %d set-ups are kept; delete one first: %w", MaxSavedSetups, ErrInvalid)
)

// MaxSetupName is the longest name of a saved set-up, in characters as a
// browser's maxlength counts them (UTF-16 code units: a character beyond
// the Basic Multilingual Plane, most emoji, counts twice), the strictest
// count the label of a Discord menu, where the names are offered, may be
// held to. Bytes would hold an accented name to half the length.
const MaxSetupName = 100

// SetupNameFits reports whether name, its spaces around trimmed, can name
// a saved set-up: one line of 1 to MaxSetupName characters.
func SetupNameFits(name string) bool {
	name = strings.TrimSpace(name)
	n := 0
	for _, r := range name {
		if unicode.IsControl(r) {
			return false // a line break, say: a name is one line of a menu
		}
		n += utf16.RuneLen(r)
	}
	return n > 0 && n <= MaxSetupName
}

// SaveSetup adds s, replacing a set-up of the same name.
func (p *PlayerSettings) SaveSetup(s SavedSetup) error {
	s.Name = strings.TrimSpace(s.Name)
	if !SetupNameFits(s.Name) {
		return ErrSetupName
	}
	p.DeleteSetup(s.Name)
	if len(p.Setups) >= MaxSavedSetups {
		return ErrTooManySetups
	}
	p.Setups = append(p.Setups, s)
	slices.SortFunc(p.Setups, func(a, b SavedSetup) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
	return nil
}

// DeleteSetup removes the set-up saved under name, and reports whether there was one.
func (p *PlayerSettings) DeleteSetup(name string) bool {
	n := len(p.Setups)
	p.Setups = slices.DeleteFunc(p.Setups, func(s SavedSetup) bool { return strings.EqualFold(s.Name, name) })
	return len(p.Setups) < n
}

type savedSetupRecord struct {
	Name    string       `json:"name"`
	Variant game.Variant `json:"variant"`
	Army    string       `json:"army,omitempty"` // Custom only
	Setup   string       `json:"setup"`
	Saved   int64        `json:"saved,omitempty"`
}

// playerRecordV2 is the current format of player settings.
type playerRecordV2 struct {
	V           int                `json:"v"`
	ID          string             `json:"id"`
	Version     uint64             `json:"ver"`
	Numbering   string             `json:"numbering,omitempty"`
	NoReminders bool               `json:"no_reminders,omitempty"`
	NoOwnMoves  bool               `json:"no_own_moves,omitempty"`
	DMBlocked   int64              `json:"dm_blocked,omitempty"`
	Locale      string             `json:"locale,omitempty"`
	DMChannel   string             `json:"dm,omitempty"`
	Setups      []savedSetupRecord `json:"setups,omitempty"`
	Defaults    map[string]string  `json:"defaults,omitempty"`  // variant → set-up name
	Vacations   [][2]int64         `json:"vacations,omitempty"` // [start, end] in Unix seconds
	LinkGen     uint32             `json:"link_gen,omitempty"`
}

func encodePlayer(p *PlayerSettings) ([]byte, error) {
	rec := playerRecordV2{V: playerRecordVersion, ID: p.UserID, Version: p.Version, NoReminders: p.NoReminders, NoOwnMoves: p.NoOwnMoves, DMBlocked: unixTime(p.DMBlockedAt), Locale: p.Locale, DMChannel: p.DMChannel, LinkGen: p.LinkGen}
	if p.Numbering != game.NumberingModern {
		rec.Numbering = p.Numbering.String()
	}
	for _, s := range p.Setups {
		r := savedSetupRecord{Name: s.Name, Variant: s.Variant, Setup: encodeSetup(&s.Setup), Saved: unixTime(s.Saved)}
		if s.Variant == game.VariantCustom {
			r.Army = s.Army.Format(game.NumberingModern)
		}
		rec.Setups = append(rec.Setups, r)
	}
	for _, v := range p.Vacations {
		rec.Vacations = append(rec.Vacations, [2]int64{v.Start.Unix(), v.End.Unix()})
	}
	for v, name := range p.Defaults {
		if rec.Defaults == nil {
			rec.Defaults = map[string]string{}
		}
		text, _ := v.MarshalText()
		rec.Defaults[string(text)] = name
	}
	return json.Marshal(&rec)
}

func decodePlayer(data []byte) (*PlayerSettings, error) {
	v, err := checkVersion(data, "player", playerRecordVersion)
	if err != nil {
		return nil, err
	}
	if v < 2 {
		// Read a record a migration has not reached (the bbolt file's has, once
		// bolt.Open returns).
		if data, err = upgradePlayerV1(data); err != nil {
			return nil, err
		}
	}
	var rec playerRecordV2
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("player record: %v: %w", err, ErrCorrupt)
	}
	fail := func(err error) (*PlayerSettings, error) {
		return nil, fmt.Errorf("player %s: %v: %w", rec.ID, err, ErrCorrupt)
	}
	p := &PlayerSettings{UserID: rec.ID, Version: rec.Version, NoReminders: rec.NoReminders, NoOwnMoves: rec.NoOwnMoves, DMBlockedAt: fromUnix(rec.DMBlocked), Locale: rec.Locale, DMChannel: rec.DMChannel, LinkGen: rec.LinkGen}
	if rec.Numbering != "" {
		if p.Numbering, err = game.ParseNumbering(rec.Numbering); err != nil {
			return fail(err)
		}
	}
	for _, r := range rec.Setups {
		s := SavedSetup{Name: r.Name, Variant: r.Variant, Army: r.Variant.Army(), Saved: fromUnix(r.Saved)}
		if r.Variant == game.VariantCustom {
			if s.Army, err = game.ParseArmy(r.Army, game.NumberingModern); err != nil {
				return fail(err)
			}
		}
		if s.Setup, err = decodeSetup(r.Setup); err != nil {
			return fail(err)
		}
		p.Setups = append(p.Setups, s)
	}
	for _, v := range rec.Vacations {
		p.Vacations = append(p.Vacations, Vacation{Start: time.Unix(v[0], 0).UTC(), End: time.Unix(v[1], 0).UTC()})
	}
	for text, name := range rec.Defaults {
		var v game.Variant
		if err := v.UnmarshalText([]byte(text)); err != nil {
			return fail(err)
		}
		if p.Defaults == nil {
			p.Defaults = map[game.Variant]string{}
		}
		p.Defaults[v] = name
	}
	return p, nil
}
