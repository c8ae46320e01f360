package ledger

import (
	"context"
	"time"
)

// Kitty is the club's kitty in two numbers: the cash in it (payments into
// and out of it, and the treasurer's manual bookings) and what settlements
// still owe it (their unpaid transfers with the kitty; negative when the
// kitty owes more than it is owed). The total is their sum: what the kitty
// holds once everyone has paid.
type Kitty struct {
	CashCents       int64 `json:"cash_cents"`
	ReceivableCents int64 `json:"receivable_cents"`
	TotalCents      int64 `json:"total_cents"`
	// Cash lists the cash movements, newest first.
	Cash []KittyMovement `json:"cash"`
	// Receivable lists the open transfers with the kitty, oldest first.
	Receivable []KittyMovement `json:"receivable"`
}

// KittyMovement is one line of the kitty: money in (+) or out (-).
type KittyMovement struct {
	Cents int64 `json:"cents"`
	// Kind is payment (a settlement's transfer paid), manual (a booking),
	// or open (a transfer not yet paid).
	Kind       string    `json:"kind"`
	Note       string    `json:"note,omitempty"`
	Player     *int64    `json:"player_id,omitempty"`
	SessionID  *int64    `json:"session_id,omitempty"`
	TransferID *int64    `json:"transfer_id,omitempty"`
	BookingID  *int64    `json:"booking_id,omitempty"`
	At         time.Time `json:"at"`
}

// The kinds of kitty movement.
const (
	KittyPayment = "payment" // a transfer with the kitty, paid
	KittyManual  = "manual"  // a treasurer's booking
	KittyOpen    = "open"    // a transfer with the kitty, not yet paid
)

// KittyBooking is a treasurer's booking of the kitty ("Grillabend", -8000).
type KittyBooking struct {
	ID        int64     `json:"id"`
	Cents     int64     `json:"cents"`
	Kind      string    `json:"kind"`
	Note      string    `json:"note"`
	SessionID *int64    `json:"session_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// ListKittyBookings returns a page of the club's kitty bookings by id:
// those after the booking p.After.
func (s *Service) ListKittyBookings(ctx context.Context, a Actor, p Page) ([]KittyBooking, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	list, err := s.Money.ListKittyBookings(ctx, a.ClubID, p)
	if list == nil {
		list = []KittyBooking{}
	}
	return list, err
}

// Kitty returns the club's kitty.
func (s *Service) Kitty(ctx context.Context, a Actor) (Kitty, error) {
	cash, receivable, err := s.Money.KittyMovements(ctx, a.ClubID)
	if err != nil {
		return Kitty{}, wrap(err, "Kitty: KittyMovements")
	}
	k := Kitty{Cash: cash, Receivable: receivable}
	if k.Cash == nil {
		k.Cash = []KittyMovement{}
	}
	if k.Receivable == nil {
		k.Receivable = []KittyMovement{}
	}
	for _, m := range k.Cash {
		k.CashCents += m.Cents
	}
	for _, m := range k.Receivable {
		k.ReceivableCents += m.Cents
	}
	k.TotalCents = k.CashCents + k.ReceivableCents
	return k, nil
}

// MaxKittyBookingCents bounds a manual kitty booking either way.
const MaxKittyBookingCents = 100_000_000

// CheckKittyBooking refuses a manual booking of zero or more than
// MaxKittyBookingCents either way, and a missing, overlong or
// control-character note.
func CheckKittyBooking(cents int64, note string) error {
	if err := CheckKittyCents(cents); err != nil {
		return err
	}
	return CheckName("note", note, MaxNoteLen)
}

// CheckKittyCents refuses a booking of zero or more than
// MaxKittyBookingCents either way.
func CheckKittyCents(cents int64) error {
	if cents == 0 || cents > MaxKittyBookingCents || cents < -MaxKittyBookingCents {
		return Invalid("cents", "must be non-zero and at most 1.000.000,00 € either way")
	}
	return nil
}

// BookKitty adds a manual booking to the club's kitty ("Grillabend", -8000).
func (s *Service) BookKitty(ctx context.Context, a Actor, cents int64, note string, idem *Idempotency) (KittyBooking, bool, error) {
	if err := CheckKittyBooking(cents, note); err != nil {
		return KittyBooking{}, false, err
	}
	var b KittyBooking
	var replayed bool
	err := s.inTx(ctx, a.ClubID, func(tx Tx) error {
		ref, err := claim(ctx, tx, idem, KindKittyBooking)
		if err != nil {
			return err
		}
		if ref != 0 {
			replayed = true
			b, err = tx.KittyBooking(ctx, ref)
			return err
		}
		if b, err = tx.InsertKittyBooking(ctx, NewKittyBooking{Cents: cents, Kind: KittyManual, Note: note, RecordedBy: a.KeyID}); err != nil {
			return wrap(err, "BookKitty: InsertKittyBooking")
		}
		if err := tx.RecordChange(ctx, NewChange{Kind: ChangeKittyBooking, Data: map[string]any{"booking": b.ID, "cents": cents}}); err != nil {
			return wrap(err, "BookKitty: RecordChange")
		}
		return remember(ctx, tx, idem, KindKittyBooking, b.ID)
	})
	return b, replayed, err
}
