package storage

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/strategobot/strategobot/game"
)

// Record versions: each kind of record carries the version of its own format,
// so that a reader knows what it holds and refuses what it cannot read.
const (
	matchRecordVersion     = 2 // v2 added "secret" (and the optional "clock_pending")
	challengeRecordVersion = 1
	playerRecordVersion    = 2 // v2 replaced the boolean "classic" by "numbering"
	standingRecordVersion  = 1
	noticeRecordVersion    = 1
	serverRecordVersion    = 1
)

// versionProbe reads only the version of any record.
type versionProbe struct {
	V int `json:"v"`
}

// unmarshalRecord decodes a record into rec, whose version is at *v. A record
// newer than known is refused with ErrNewerSchema, also when it no longer
// decodes into today's struct.
func unmarshalRecord(data []byte, rec any, v *int, kind string, known int) error {
	if err := json.Unmarshal(data, rec); err != nil {
		if _, verr := checkVersion(data, kind, known); verr != nil {
			return verr
		}
		return fmt.Errorf("%s record: %v: %w", kind, err, ErrCorrupt)
	}
	if *v > known {
		return fmt.Errorf("%s record version %d (this program reads up to %d): %w", kind, *v, known, ErrNewerSchema)
	}
	return nil
}

// checkVersion reads a record's version and refuses one newer than this program knows.
func checkVersion(data []byte, kind string, known int) (int, error) {
	var p versionProbe
	if err := json.Unmarshal(data, &p); err != nil {
		return 0, fmt.Errorf("%s record: %v: %w", kind, err, ErrCorrupt)
	}
	if p.V > known {
		return p.V, fmt.Errorf("%s record version %d (this program reads up to %d): %w", kind, p.V, known, ErrNewerSchema)
	}
	return p.V, nil
}

// UpgradeRecord rewrites a stored record of kind ("match", "player") that is
// older than format version to in that format, carrying every field the
// format did not change over as it is; it returns nil for a record already at
// to or later. A record newer than this program reads is refused
// (ErrNewerSchema), one that is not a record with ErrCorrupt. A backend's
// migration applies it, one format at a time, to every record it stored in an
// older format (the decoders also read those formats, so that a record the
// migration has not reached is never misread).
func UpgradeRecord(kind string, data []byte, to int) ([]byte, error) {
	upgrade, ok := recordUpgrades[recordFormat{kind, to}]
	if !ok {
		return nil, fmt.Errorf("no way to bring a %s record to version %d: %w", kind, to, ErrInvalid)
	}
	v, err := checkVersion(data, kind, recordVersions[kind])
	if err != nil || v >= to {
		return nil, err
	}
	return upgrade(data)
}

// recordVersions are the formats this program reads, by kind of record.
var recordVersions = map[string]int{
	"match": matchRecordVersion, "challenge": challengeRecordVersion, "player": playerRecordVersion,
	"standing": standingRecordVersion, "notice": noticeRecordVersion, "server": serverRecordVersion,
}

// recordFormat is one version of the format of one kind of record.
type recordFormat struct {
	kind string
	v    int
}

// recordUpgrades rewrite a record of an older format in the format they made.
var recordUpgrades = map[recordFormat]func([]byte) ([]byte, error){
	{"player", 2}: upgradePlayerV1,
	{"match", 2}:  upgradeMatchV1,
}

// playerRecordV1 is the first format of player settings.
type playerRecordV1 struct {
	V       int  `json:"v"`
	Classic bool `json:"classic"`
}

// upgradePlayerV1 rewrites a v1 player record as v2: "classic": true becomes
// "numbering": "classic". Every other field is carried over as it is.
func upgradePlayerV1(data []byte) ([]byte, error) {
	var old playerRecordV1
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &old); err != nil {
		return nil, fmt.Errorf("player record v1: %v: %w", err, ErrCorrupt)
	}
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fmt.Errorf("player record v1: %v: %w", err, ErrCorrupt)
	}
	delete(fields, "classic")
	if old.Classic {
		fields["numbering"] = json.RawMessage(`"classic"`)
	}
	fields["v"] = json.RawMessage("2")
	return json.Marshal(fields)
}

// upgradeMatchV1 rewrites a v1 match record as v2 with a fresh secret. Every
// other field is carried over as it is.
func upgradeMatchV1(data []byte) ([]byte, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fmt.Errorf("match record v1: %v: %w", err, ErrCorrupt)
	}
	secret, err := NewSecret()
	if err != nil {
		return nil, err
	}
	text, err := json.Marshal(encodeSecret(secret))
	if err != nil {
		return nil, err
	}
	fields["secret"] = text
	fields["v"] = json.RawMessage("2")
	return json.Marshal(fields)
}

type playerRecord struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
}

type sideSetupRecord struct {
	Status string `json:"status,omitempty"` // "", "draft", "confirmed"
	Setup  string `json:"setup,omitempty"`
	At     int64  `json:"at,omitempty"`
}

var setupStatusWords = [...]string{SetupNone: "", SetupDraft: "draft", SetupConfirmed: "confirmed"}

// legacyMessages is the "msgs" object of records written before Match.Computer:
// message ids nothing read, and the computer's level under "extra". It is
// read, never written.
type legacyMessages struct {
	Extra map[string]string `json:"extra,omitempty"`
}

// computer reads the computer's level where records before Match.Computer
// kept it; empty when there is none.
func (l *legacyMessages) computer() string {
	if l == nil {
		return ""
	}
	return strings.ToLower(strings.TrimSpace(l.Extra["computer"]))
}

// matchRecord is a Match as stored: JSON, unknown fields ignored, times in
// unix seconds, the log as one compact string (see encodeLog).
type matchRecord struct {
	V        int                `json:"v"`
	ID       uint64             `json:"id"`
	Version  uint64             `json:"ver"`
	Guild    string             `json:"guild,omitempty"`
	Channel  string             `json:"channel"`
	Thread   string             `json:"thread,omitempty"`
	Red      playerRecord       `json:"red"`
	Blue     playerRecord       `json:"blue"`
	Rules    rulesRecord        `json:"rules"`
	MoveTime int64              `json:"move_time"`       // seconds
	GameClk  string             `json:"clock,omitempty"` // "600+5": seconds, and seconds a move
	Left     []int64            `json:"left,omitempty"`  // each side's time left on the clock, in milliseconds
	Casual   bool               `json:"casual,omitempty"`
	Secret   string             `json:"secret"`
	Computer string             `json:"computer,omitempty"` // "easy", "normal", "hard"
	Phase    string             `json:"phase"`
	Setups   [2]sideSetupRecord `json:"setups"`
	Log      string             `json:"log,omitempty"` // times relative to Created
	Result   string             `json:"result,omitempty"`
	Deadline int64              `json:"deadline,omitempty"`
	RemindAt int64              `json:"remind_at,omitempty"`
	Reminded int                `json:"reminded,omitempty"`
	Clock    bool               `json:"clock_pending,omitempty"`
	Invites  []string           `json:"invites_pending,omitempty"` // in set-up, "red", "blue": invites the set-up clock waits for
	Arrived  []int64            `json:"invites_arrived,omitempty"` // in set-up, when Red's and Blue's invites arrived (0: not yet, or not waited for)
	Began    int64              `json:"clock_started,omitempty"`   // when the clock that waited for its board started
	Messages *legacyMessages    `json:"msgs,omitempty"`
	Rated    bool               `json:"rated,omitempty"`
	CallOff  string             `json:"called_off,omitempty"` // why it ended with no result; "" for late-setup
	ModNote  string             `json:"moderator_note,omitempty"`
	Gone     bool               `json:"public_gone,omitempty"`
	Lost     int64              `json:"public_lost,omitempty"`      // when the channel was last found out of reach
	Deleted  bool               `json:"public_deleted,omitempty"`   // and whether it was deleted
	Back     uint64             `json:"public_back,omitempty"`      // the version at which it last came back
	Told     []int64            `json:"told_unreachable,omitempty"` // when the channel was told Red's and Blue's DMs do not reach them (0: not)
	Tourney  uint64             `json:"tournament,omitempty"`
	RoundEnd int64              `json:"round_ends,omitempty"` // a tournament match's round deadline
	Live     string             `json:"live_msg,omitempty"`
	Asked    []askedRecord      `json:"asked,omitempty"`    // the DMs asking about offers (Match.OfferDMs)
	Announce bool               `json:"announce,omitempty"` // its channel is told of it by a notice
	Created  int64              `json:"created"`
	Started  int64              `json:"started,omitempty"`
	Ended    int64              `json:"ended,omitempty"`
}

// askedRecord is an OfferDM as stored: the offer's place in the log, the
// message id, and when it was worded (unix seconds).
type askedRecord struct {
	Offer int    `json:"offer"`
	Msg   string `json:"msg"`
	At    int64  `json:"at,omitempty"`
}

func encodeMatch(m *Match) ([]byte, error) {
	rec := matchRecord{
		V: matchRecordVersion, ID: uint64(m.ID), Version: m.Version,
		Guild: m.GuildID, Channel: m.ChannelID, Thread: m.ThreadID,
		Red:      playerRecord{m.Players[game.Red].UserID, m.Players[game.Red].Name},
		Blue:     playerRecord{m.Players[game.Blue].UserID, m.Players[game.Blue].Name},
		Rules:    encodeRules(m.Rules),
		MoveTime: int64(m.MoveTime / time.Second),
		GameClk:  encodeClock(m.Clock),
		Casual:   m.Casual,
		Secret:   encodeSecret(m.Secret),
		Computer: m.Computer,
		Phase:    m.Phase.String(),
		Log:      encodeLog(m.Created, m.Log),
		Result:   encodeResult(m.Result),
		Deadline: unixTime(m.Deadline), RemindAt: unixTime(m.RemindAt), Reminded: m.RemindersSent, Clock: m.ClockPending,
		Began: unixTime(m.ClockStarted), Rated: m.RatingApplied,
		Gone: m.PublicGone, Lost: unixTime(m.PublicLost), Deleted: m.PublicDeleted, Back: m.PublicBack,
		ModNote: m.ModeratorNote, Live: m.LiveMessage, Announce: m.Announce, Tourney: uint64(m.Tournament), RoundEnd: unixTime(m.RoundEnds),
		Created: unixTime(m.Created), Started: unixTime(m.Started), Ended: unixTime(m.Ended),
	}
	if m.CalledOff != CallOffLateSetup {
		if int(m.CalledOff) >= len(callOffWords) {
			return nil, fmt.Errorf("match %d: unknown reason for calling it off: %w", m.ID, ErrInvalid)
		}
		rec.CallOff = callOffWords[m.CalledOff]
	}
	for side, pending := range m.InvitePending {
		if pending {
			rec.Invites = append(rec.Invites, Audience(side).String())
		}
	}
	if m.InviteArrived != [2]time.Time{} {
		rec.Arrived = []int64{unixTime(m.InviteArrived[game.Red]), unixTime(m.InviteArrived[game.Blue])}
	}
	for _, d := range m.OfferDMs {
		rec.Asked = append(rec.Asked, askedRecord{Offer: d.Offer, Msg: d.Message, At: unixTime(d.At)})
	}
	if m.ToldUnreachable != [2]time.Time{} {
		rec.Told = []int64{unixTime(m.ToldUnreachable[game.Red]), unixTime(m.ToldUnreachable[game.Blue])}
	}
	if m.Clock.On() {
		rec.Left = []int64{m.Left[0].Milliseconds(), m.Left[1].Milliseconds()}
	}
	for side, s := range m.Setups {
		if int(s.Status) >= len(setupStatusWords) {
			return nil, fmt.Errorf("match %d: unknown set-up status: %w", m.ID, ErrInvalid)
		}
		rec.Setups[side] = sideSetupRecord{Status: setupStatusWords[s.Status], At: unixTime(s.At)}
		if s.Status != SetupNone {
			rec.Setups[side].Setup = encodeSetup(&s.Setup)
		}
	}
	return json.Marshal(&rec)
}

func decodeMatch(data []byte) (*Match, error) {
	var rec matchRecord
	if err := unmarshalRecord(data, &rec, &rec.V, "match", matchRecordVersion); err != nil {
		return nil, err
	}
	fail := func(what string, err error) (*Match, error) {
		return nil, fmt.Errorf("match %d: %s: %v: %w", rec.ID, what, err, ErrCorrupt)
	}
	m := &Match{
		ID: MatchID(rec.ID), Version: rec.Version,
		GuildID: rec.Guild, ChannelID: rec.Channel, ThreadID: rec.Thread,
		MoveTime: time.Duration(rec.MoveTime) * time.Second,
		Casual:   rec.Casual, Computer: rec.Computer,
		Deadline: fromUnix(rec.Deadline), RemindAt: fromUnix(rec.RemindAt), RemindersSent: rec.Reminded, ClockPending: rec.Clock,
		ClockStarted: fromUnix(rec.Began), RatingApplied: rec.Rated, PublicGone: rec.Gone, PublicLost: fromUnix(rec.Lost), PublicDeleted: rec.Deleted, PublicBack: rec.Back,
		ModeratorNote: rec.ModNote, LiveMessage: rec.Live, Announce: rec.Announce, Tournament: TournamentID(rec.Tourney), RoundEnds: fromUnix(rec.RoundEnd),
		Created: fromUnix(rec.Created), Started: fromUnix(rec.Started), Ended: fromUnix(rec.Ended),
	}
	for _, d := range rec.Asked {
		m.OfferDMs = append(m.OfferDMs, OfferDM{Offer: d.Offer, Message: d.Msg, At: fromUnix(d.At)})
	}
	clock, err := decodeClock(rec.GameClk)
	if err != nil {
		return fail("clock", err)
	}
	m.Clock = clock
	if len(rec.Left) == 2 {
		m.Left = [2]time.Duration{time.Duration(rec.Left[0]) * time.Millisecond, time.Duration(rec.Left[1]) * time.Millisecond}
	}
	if rec.CallOff != "" {
		k := slices.Index(callOffWords[:], rec.CallOff)
		if k < 0 {
			return fail("called off", fmt.Errorf("unknown reason %q", rec.CallOff))
		}
		m.CalledOff = CallOff(k)
	}
	if m.Computer == "" {
		m.Computer = rec.Messages.computer()
	}
	for _, w := range rec.Invites {
		to, err := parseAudience(w)
		if err != nil || to > AudienceBlue {
			return fail("invites pending", fmt.Errorf("unknown side %q", w))
		}
		m.InvitePending[to] = true
	}
	if len(rec.Arrived) != 0 {
		if len(rec.Arrived) != 2 {
			return fail("invites arrived", fmt.Errorf("%d times, want Red's and Blue's", len(rec.Arrived)))
		}
		m.InviteArrived = [2]time.Time{fromUnix(rec.Arrived[0]), fromUnix(rec.Arrived[1])}
	}
	if len(rec.Told) != 0 {
		if len(rec.Told) != 2 {
			return fail("told unreachable", fmt.Errorf("%d times, want Red's and Blue's", len(rec.Told)))
		}
		m.ToldUnreachable = [2]time.Time{fromUnix(rec.Told[0]), fromUnix(rec.Told[1])}
	}
	m.Players[game.Red] = Player{rec.Red.ID, rec.Red.Name}
	m.Players[game.Blue] = Player{rec.Blue.ID, rec.Blue.Name}
	if m.Rules, err = decodeRules(rec.Rules); err != nil {
		return fail("rules", err)
	}
	if rec.V >= 2 {
		if m.Secret, err = decodeSecret(rec.Secret); err != nil {
			return fail("secret", err)
		}
	}
	phase := -1
	for i, w := range phaseNames {
		if w == rec.Phase {
			phase = i
		}
	}
	if phase < 0 {
		return fail("phase", fmt.Errorf("unknown phase %q", rec.Phase))
	}
	m.Phase = Phase(phase)
	for side, s := range rec.Setups {
		status := -1
		for i, w := range setupStatusWords {
			if w == s.Status {
				status = i
			}
		}
		if status < 0 {
			return fail("set-up", fmt.Errorf("unknown set-up status %q", s.Status))
		}
		setup, err := decodeSetup(s.Setup)
		if err != nil {
			return fail("set-up", err)
		}
		m.Setups[side] = SideSetup{Status: SetupStatus(status), Setup: setup, At: fromUnix(s.At)}
	}
	if m.Log, err = decodeLog(m.Created, rec.Log); err != nil {
		return fail("log", err)
	}
	if m.Result, err = decodeResult(rec.Result); err != nil {
		return fail("result", err)
	}
	return m, nil
}
