package storage

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/strategobot/strategobot/game"
)

// ServerSettings are what a server's admins chose for the bot there. The
// zero value is the bot's behaviour before any choice: matches anywhere, by
// anyone, boards as the bot's configuration says, practice allowed.
type ServerSettings struct {
	GuildID string
	// Version increases with every change.
	Version uint64
	// Channels lists the channels where matches may be started; empty: any.
	Channels []string
	// Board is how a match's public board is shown; BoardDefault: as the
	// bot's configuration says.
	Board BoardMode
	// Variant is the default variant of new matches; zero: Classic.
	Variant game.Variant
	// MoveTime is the default move time of new matches; zero: the bot's.
	MoveTime time.Duration
	// NoPractice turns /stratego practice off in the server.
	NoPractice bool
	// StarterRole, when set, is the role a member needs to start matches.
	StarterRole string
	// OrganiserRole, when set, is a role whose members may create
	// tournaments besides the moderators.
	OrganiserRole string
	// Rules are the server's own defaults for the rule options of new matches.
	Rules RuleDefaults
	// VacationDays is each member's yearly vacation allowance here, when the
	// server chose one: nil is no choice (DefaultVacationDays), zero turns
	// vacations off. VacationAllowance reads it.
	VacationDays *int
	// SeekHours is how long a seek waits in the queue; zero: an hour for
	// games on a clock, a day for a time per move (SeekExpiry).
	SeekHours int
	// CommandChecked is the bot's own note, no admin's choice: with its
	// command registered globally, it looked in this server for a copy of
	// it registered there alone (a start with guild_id), and none is left,
	// so that a start need not ask Discord again. A start with guild_id
	// naming the server clears it.
	CommandChecked bool
}

// VacationAllowance is each member's yearly vacation allowance on the
// server, in days: its choice, or DefaultVacationDays when it made none;
// zero when vacations are off here.
func (s *ServerSettings) VacationAllowance() int {
	if s.VacationDays == nil {
		return DefaultVacationDays
	}
	return *s.VacationDays
}

// DefaultVariant is the variant of a new match, seek or tournament that
// names none: the server's choice, else Classic.
func (s *ServerSettings) DefaultVariant() game.Variant {
	if s.Variant != 0 {
		return s.Variant
	}
	return game.VariantClassic
}

// DefaultMoveTime is the move time of a new match or tournament that names
// none: the server's choice, else bot, the bot's configured default.
func (s *ServerSettings) DefaultMoveTime(bot time.Duration) time.Duration {
	if s.MoveTime != 0 {
		return s.MoveTime
	}
	return bot
}

// RuleDefaults are a server's defaults for the rule options of new matches;
// a nil option keeps the variant's own default. A challenge's options
// override them.
type RuleDefaults struct {
	TwoSquares          *int  // 0 (off), 3 or 5
	MoreSquares         *bool // the More-Squares rule
	ScoutStrikesAtRange *bool // Scouts move and strike in one turn
	MaxMoves            *int  // a draw after this many moves; 0: no limit
}

// Apply sets the options the server chose on rules.
func (d RuleDefaults) Apply(rules *game.Rules) {
	if d.TwoSquares != nil {
		rules.TwoSquares = *d.TwoSquares
	}
	if d.MoreSquares != nil {
		rules.MoreSquares = *d.MoreSquares
	}
	if d.ScoutStrikesAtRange != nil {
		rules.ScoutStrikesAtRange = *d.ScoutStrikesAtRange
	}
	if d.MaxMoves != nil {
		rules.MaxMoves = *d.MaxMoves
	}
}

// BoardMode is how a match's public board is shown in its channel.
type BoardMode uint8

// The board modes.
const (
	BoardDefault BoardMode = iota // no choice: the bot's default (its threads setting)
	BoardPerMove                  // a new picture for every move in the channel
	BoardThread                   // a thread for every match, a picture per move in it
	BoardLive                     // one message per match, edited after every move
)

// boardModeWords are the modes' names, as stored and as the command offers
// them; BoardDefault is stored as no name.
var boardModeWords = [...]string{BoardDefault: "default", BoardPerMove: "per-move", BoardThread: "thread", BoardLive: "live"}

func (m BoardMode) String() string {
	if int(m) < len(boardModeWords) {
		return boardModeWords[m]
	}
	return fmt.Sprintf("BoardMode(%d)", m)
}

// ParseBoardMode reads the name of a board mode a server may choose.
func ParseBoardMode(s string) (BoardMode, error) {
	if k := slices.Index(boardModeWords[:], s); k > int(BoardDefault) {
		return BoardMode(k), nil
	}
	return 0, fmt.Errorf("unknown board mode %q: %w", s, ErrInvalid)
}

// MaxServerChannels bounds the channel list, keeping the record small.
const MaxServerChannels = 25

// AllowsChannel reports whether matches may be started in channelID.
func (s *ServerSettings) AllowsChannel(channelID string) bool {
	return len(s.Channels) == 0 || slices.Contains(s.Channels, channelID)
}

type serverRecord struct {
	V          int                 `json:"v"`
	ID         string              `json:"id"`
	Version    uint64              `json:"ver"`
	Channels   []string            `json:"channels,omitempty"`
	Board      string              `json:"board,omitempty"` // absent: no choice (older bots stored a per-move choice so too)
	Variant    string              `json:"variant,omitempty"`
	MoveTime   int64               `json:"move_time,omitempty"` // seconds
	NoPractice bool                `json:"no_practice,omitempty"`
	Role       string              `json:"role,omitempty"`
	Organiser  string              `json:"organiser_role,omitempty"`
	Rules      *ruleDefaultsRecord `json:"rules,omitempty"`
	Vacation   *int                `json:"vacation_days,omitempty"` // absent: the default; 0: off
	SeekHours  int                 `json:"seek_hours,omitempty"`
	Checked    bool                `json:"command_checked,omitempty"`
}

// ruleDefaultsRecord holds a server's rule defaults: a missing field is no choice.
type ruleDefaultsRecord struct {
	TwoSquares  *int  `json:"two_squares,omitempty"`
	MoreSquares *bool `json:"more_squares,omitempty"`
	ScoutRange  *bool `json:"scout_strikes_at_range,omitempty"`
	MaxMoves    *int  `json:"max_moves,omitempty"`
}

func encodeServer(s *ServerSettings) ([]byte, error) {
	rec := serverRecord{V: serverRecordVersion, ID: s.GuildID, Version: s.Version, Channels: s.Channels,
		MoveTime: int64(s.MoveTime / time.Second), NoPractice: s.NoPractice, Role: s.StarterRole, Organiser: s.OrganiserRole, Vacation: s.VacationDays, SeekHours: s.SeekHours, Checked: s.CommandChecked}
	if r := s.Rules; r != (RuleDefaults{}) {
		rec.Rules = &ruleDefaultsRecord{TwoSquares: r.TwoSquares, MoreSquares: r.MoreSquares, ScoutRange: r.ScoutStrikesAtRange, MaxMoves: r.MaxMoves}
	}
	if s.Board != BoardDefault {
		rec.Board = s.Board.String()
	}
	if s.Variant != 0 {
		text, err := s.Variant.MarshalText()
		if err != nil {
			return nil, err
		}
		rec.Variant = string(text)
	}
	return json.Marshal(&rec)
}

func decodeServer(data []byte) (*ServerSettings, error) {
	if _, err := checkVersion(data, "server", serverRecordVersion); err != nil {
		return nil, err
	}
	var rec serverRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("server record: %v: %w", err, ErrCorrupt)
	}
	s := &ServerSettings{GuildID: rec.ID, Version: rec.Version, Channels: rec.Channels,
		MoveTime: time.Duration(rec.MoveTime) * time.Second, NoPractice: rec.NoPractice, StarterRole: rec.Role, OrganiserRole: rec.Organiser, VacationDays: rec.Vacation, SeekHours: rec.SeekHours, CommandChecked: rec.Checked}
	if r := rec.Rules; r != nil {
		s.Rules = RuleDefaults{TwoSquares: r.TwoSquares, MoreSquares: r.MoreSquares, ScoutStrikesAtRange: r.ScoutRange, MaxMoves: r.MaxMoves}
	}
	var err error
	if rec.Board != "" {
		if s.Board, err = ParseBoardMode(rec.Board); err != nil {
			return nil, fmt.Errorf("server %s: %v: %w", rec.ID, err, ErrCorrupt)
		}
	}
	if rec.Variant != "" {
		if err := s.Variant.UnmarshalText([]byte(rec.Variant)); err != nil {
			return nil, fmt.Errorf("server %s: %v: %w", rec.ID, err, ErrCorrupt)
		}
	}
	return s, nil
}

// PrepareServer makes settings changed by a caller's function ready to be
// stored: the guild id and the next version are the store's, and the
// choices are checked.
func PrepareServer(s *ServerSettings, guildID string, version uint64) error {
	s.GuildID, s.Version = guildID, version+1
	switch {
	case len(s.Channels) > MaxServerChannels:
		return fmt.Errorf("at most %d channels: %w", MaxServerChannels, ErrInvalid)
	case s.Board > BoardLive:
		return fmt.Errorf("unknown board mode: %w", ErrInvalid)
	case s.MoveTime != 0 && (s.MoveTime < MinMoveTime || s.MoveTime > MaxMoveTime):
		return fmt.Errorf("a move time of %v is not between %v and %v: %w", s.MoveTime, MinMoveTime, MaxMoveTime, ErrInvalid)
	case s.SeekHours < 0 || s.SeekHours > MaxSeekHours:
		return fmt.Errorf("seeks waiting %d hours is not between 0 and %d: %w", s.SeekHours, MaxSeekHours, ErrInvalid)
	case s.VacationDays != nil && (*s.VacationDays < 0 || *s.VacationDays > MaxVacationDays):
		return fmt.Errorf("a vacation allowance of %d days is not between 0 and %d: %w", *s.VacationDays, MaxVacationDays, ErrInvalid)
	}
	rules := game.DefaultRules(game.VariantClassic)
	s.Rules.Apply(&rules)
	if err := rules.Validate(); err != nil {
		return fmt.Errorf("the server's rule options: %w: %w", err, ErrInvalid)
	}
	return nil
}

// EncodeServer and DecodeServer are the record format, for other backends.
func EncodeServer(s *ServerSettings) ([]byte, error) { return encodeServer(s) }

// DecodeServer reads what EncodeServer wrote.
func DecodeServer(data []byte) (*ServerSettings, error) { return decodeServer(data) }
