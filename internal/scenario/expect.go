package scenario

// Event is one webhook event of the platform's log.
type Event struct {
	ID         string `json:"eventId"`
	Type       string `json:"eventType"`
	ResourceID string `json:"resourceId"`
}

// Verdict compares the events that arrived with those expected.
type Verdict struct {
	Arrived []Event  `json:"arrived"` // each event once, in the order seen
	Missing []string `json:"missing"` // expected types not (or not often enough) seen
}

// Met reports whether every expected event arrived.
func (v Verdict) Met() bool { return len(v.Missing) == 0 }

// Match compares events with expect, a list of event types where a type
// listed n times needs n distinct events. Order does not count (the
// platform delivers at least once and in any order); an event seen twice
// (retries, replays) counts once.
func Match(expect []string, events []Event) Verdict {
	v := Verdict{Arrived: []Event{}, Missing: []string{}}
	seen := map[string]bool{}
	count := map[string]int{}
	for _, e := range events {
		if seen[e.ID] {
			continue
		}
		seen[e.ID] = true
		v.Arrived = append(v.Arrived, e)
		count[e.Type]++
	}
	for _, t := range expect {
		if count[t] > 0 {
			count[t]--
			continue
		}
		v.Missing = append(v.Missing, t)
	}
	return v
}
