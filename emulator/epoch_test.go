package emulator_test

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/partnertui/partnertui/emulator"
	"github.com/partnertui/partnertui/emulator/emulatortest"
)

// newestQuery reads, as a client would, the newest bookings, the oldest
// accounts and the scheduled transfers of the project.
const newestQuery = `{
  transactions(first: 3, orderBy: {field: createdAt, direction: Desc}, filters: {status: [Booked]}) {
    totalCount edges { node { id createdAt label amount { value currency } statusInfo { status } } } }
  upcoming: transactions(first: 50, filters: {status: [Upcoming]}) { edges { node { id executionDate } } }
  accounts(first: 3, orderBy: {field: createdAt, direction: Asc}) { totalCount edges { node { id createdAt IBAN } } }
}`

// newest asks srv newestQuery with a project token.
func newest(t *testing.T, srv *emulator.Server) map[string]any {
	t.Helper()
	info := srv.Info()
	code, body := emulatortest.GraphQL(t, info.Environments["sandbox"].GraphQLURL, emulatortest.ProjectToken(t, info, "sandbox"), newestQuery, nil)
	if code != 200 || body["errors"] != nil {
		t.Fatalf("the query answered %d: %v", code, body)
	}
	return body["data"].(map[string]any)
}

// edgeTimes are the field of each node of a connection of data, as times.
func edgeTimes(t *testing.T, data map[string]any, conn, field string) []time.Time {
	t.Helper()
	var out []time.Time
	for _, e := range data[conn].(map[string]any)["edges"].([]any) {
		v := e.(map[string]any)["node"].(map[string]any)[field].(string)
		at, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			t.Fatalf("%s.%s %q: %v", conn, field, v, err)
		}
		out = append(out, at)
	}
	return out
}

// TestEpochDatesTheData: Options.Epoch is the "now" the data is generated
// up to. One seed and one epoch give the same answers from two emulators;
// the newest booking is within the day before the epoch, the scheduled
// transfers after the epoch's day; the default epoch stays the fixed one.
func TestEpochDatesTheData(t *testing.T) {
	t.Parallel()
	epoch := time.Date(2026, time.January, 15, 0, 0, 0, 0, time.UTC)
	opts := emulator.Options{Accounts: 60, Seed: 7, Epoch: epoch}
	a, b := emulatortest.Start(t, opts), emulatortest.Start(t, opts)
	def := emulatortest.Start(t, emulator.Options{Accounts: 60, Seed: 7})
	if got := a.Info().Epoch; !got.Equal(epoch) {
		t.Errorf("Info().Epoch = %s, want %s", got, epoch)
	}
	if got := def.Info().Epoch; !got.Equal(emulator.DefaultEpoch()) || !got.Equal(time.Date(2026, time.November, 1, 9, 0, 0, 0, time.UTC)) {
		t.Errorf("the default epoch is %s, want the fixed 2026-11-01 09:00 UTC", got)
	}
	da, db, dd := newest(t, a), newest(t, b), newest(t, def)
	if !reflect.DeepEqual(da, db) {
		t.Fatalf("one seed and one epoch, two answers:\n%v\n%v", da, db)
	}
	for _, c := range []struct {
		name  string
		epoch time.Time
		data  map[string]any
	}{{"pinned", epoch, da}, {"default", emulator.DefaultEpoch(), dd}} {
		booked := edgeTimes(t, c.data, "transactions", "createdAt")
		if len(booked) == 0 || booked[0].After(c.epoch) || c.epoch.Sub(booked[0]) > 24*time.Hour {
			t.Errorf("%s epoch %s: the newest bookings are at %v, want the first within the day before the epoch", c.name, c.epoch, booked)
		}
		nextMorning := c.epoch.Truncate(24 * time.Hour).Add(32 * time.Hour)
		upcoming := edgeTimes(t, c.data, "upcoming", "executionDate")
		if len(upcoming) == 0 {
			t.Errorf("%s epoch %s: no Upcoming transfer to check", c.name, c.epoch)
		}
		for _, at := range upcoming {
			if at.Before(nextMorning) {
				t.Errorf("%s epoch %s: an Upcoming transfer executes at %s, before %s", c.name, c.epoch, at, nextMorning)
			}
		}
		for _, at := range edgeTimes(t, c.data, "accounts", "createdAt") {
			if at.After(c.epoch) || at.Before(c.epoch.AddDate(-3, 0, -1)) {
				t.Errorf("%s epoch %s: an account created at %s, outside the three years before the epoch", c.name, c.epoch, at)
			}
		}
	}
	if ids := func(d map[string]any) any { return d["accounts"].(map[string]any)["edges"] }; reflect.DeepEqual(ids(da), ids(dd)) {
		t.Error("another epoch answers the same accounts with the same dates")
	}
}

// TestEpochIsRefusedInTheFutureOrLongAgo: data generated up to a time
// after the emulator's clock would date bookings in the future.
func TestEpochIsRefusedInTheFutureOrLongAgo(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, time.November, 29, 15, 4, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	for _, c := range []struct {
		epoch time.Time
		want  string
	}{
		{now.Add(time.Minute), "is after now"},
		{time.Date(2027, time.January, 1, 0, 0, 0, 0, time.UTC), "such as today 2026-11-29"},
		{time.Date(1999, time.December, 31, 0, 0, 0, 0, time.UTC), "before 2000"},
	} {
		srv, err := emulator.Start(context.Background(), emulator.Options{Epoch: c.epoch, Now: clock})
		if err == nil {
			srv.Close()
			t.Errorf("epoch %s: started", c.epoch)
			continue
		}
		if !errors.Is(err, emulator.ErrInvalidOptions) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("epoch %s: %v, want ErrInvalidOptions saying %q", c.epoch, err, c.want)
		}
	}
	srv := emulatortest.Start(t, emulator.Options{Accounts: 5, Epoch: now, Now: clock})
	if got := srv.Info().Epoch; !got.Equal(now) {
		t.Errorf("an epoch of now: Info().Epoch = %s", got)
	}
}

// TestStartOfDayIsTheUTCDay: --demo's epoch is the same all day long, in
// any time zone, and the next day's from midnight UTC.
func TestStartOfDayIsTheUTCDay(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, time.November, 29, 0, 0, 0, 0, time.UTC)
	paris := time.FixedZone("CET", 3600)
	for _, at := range []time.Time{day, day.Add(9 * time.Hour), day.Add(24*time.Hour - time.Nanosecond), time.Date(2026, time.November, 30, 0, 30, 0, 0, paris)} {
		if got := emulator.StartOfDay(at); !got.Equal(day) || got.Location() != time.UTC {
			t.Errorf("StartOfDay(%s) = %s, want %s", at, got, day)
		}
	}
	if got := emulator.StartOfDay(day.Add(24 * time.Hour)); !got.Equal(day.Add(24 * time.Hour)) {
		t.Errorf("StartOfDay of the next midnight = %s", got)
	}
}

// TestBannerSaysTheEpoch: the start banner says the time the data is
// generated up to; the JSON line carries it.
func TestBannerSaysTheEpoch(t *testing.T) {
	t.Parallel()
	info := emulator.Info{APIURL: "http://127.0.0.1:1", AuthURL: "http://127.0.0.1:1", Epoch: time.Date(2026, time.January, 15, 0, 0, 0, 0, time.UTC)}
	var text, js bytes.Buffer
	if err := emulator.PrintInfo(&text, info, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "Data           generated up to 2026-01-15 00:00 UTC\n") {
		t.Errorf("the banner does not say the epoch:\n%s", text.String())
	}
	if err := emulator.PrintInfo(&js, info, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"epoch":"2026-01-15T00:00:00Z"`) {
		t.Errorf("the JSON line does not carry the epoch: %s", js.String())
	}
}
