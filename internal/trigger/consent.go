package trigger

import (
	"context"
	"fmt"
	"time"

	"github.com/partnertui/partnertui/api"
	"github.com/partnertui/partnertui/internal/iban"
	"github.com/partnertui/partnertui/internal/remedy"
)

// consentWaiter waits until the user answers the consent of a payment
// that initiateCreditTransfers left ConsentPending (the signed-in user
// does not consent automatically): it names the consent URL, with a QR
// code on a terminal to finish on a phone, says how long it waits (the
// run's --timeout), then reads the payment every --interval until it
// leaves ConsentPending. Without a timeout it does not wait.
func (tr *Trigger) consentWaiter() func(context.Context, *api.Payment) (*api.Payment, error) {
	opts, c := tr.opts, tr.env.API
	return func(ctx context.Context, p *api.Payment) (*api.Payment, error) {
		if opts.Timeout <= 0 {
			return p, nil
		}
		w := tr.out.Err
		fmt.Fprintf(w, "Payment %s waits for the user's consent: open %s\n", p.ID, p.ConsentURL)
		if tr.out.Terminal {
			// Most terminals are dark; HalfBlocks keeps the code dark on
			// light for the phone's camera.
			if qr, err := iban.HalfBlocks(p.ConsentURL, true); err == nil {
				fmt.Fprintf(w, "or scan it with a phone:\n%s\n", qr.Text)
			}
		}
		fmt.Fprintf(w, "Waiting up to %s for the answer, reading the payment every %s.\n", opts.Timeout, opts.Interval)
		ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
		deadline := time.Now().Add(opts.Timeout)
		progress := tr.out.Progress
		defer progress.Clear()
		t := time.NewTicker(opts.Interval)
		defer t.Stop()
		for {
			progress.Set(fmt.Sprintf("waiting for the consent of payment %s · %s left", p.ID, left(time.Until(deadline))))
			select {
			case <-ctx.Done():
				return p, &PaymentNotSentError{PaymentID: p.ID, Status: p.Status, ConsentURL: p.ConsentURL, Waited: opts.Timeout}
			case <-t.C:
			}
			next, err := c.Payment(ctx, p.ID)
			switch {
			case err == nil && next.Status != "ConsentPending":
				fmt.Fprintf(w, "Payment %s is %s.\n", next.ID, next.Status)
				return next, nil
			case err != nil && ctx.Err() == nil:
				fmt.Fprintf(w, "could not read payment %s: %s\n", p.ID, remedy.Sentence(err))
			}
		}
	}
}
