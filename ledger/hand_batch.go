package ledger

import "context"

// BatchOutcome is what became of one queued hand: recorded (Hand, and
// Replayed when an earlier request had recorded it), refused (Err), or
// not applied because an earlier hand of the batch was refused.
type BatchOutcome struct {
	Hand       Hand
	Replayed   bool
	Err        error
	NotApplied bool
}

// RecordBatch records an offline outbox in order, each hand in its own
// transaction (RecordHand) and keyed by its client id (ClientKey). After a refused hand the rest are not
// applied. A failure of the store (EUNAVAILABLE, EINTERNAL) ends the
// batch with that error: the client retries the whole batch, which the
// hands' keys make safe. The recorded hands' texts come with names.
func (s *Service) RecordBatch(ctx context.Context, a Actor, batch []NewHand) ([]BatchOutcome, error) {
	out := make([]BatchOutcome, len(batch))
	refused := false
	for i, nh := range batch {
		if refused {
			out[i].NotApplied = true
			continue
		}
		h, replayed, err := s.RecordHand(ctx, a, nh, nil)
		switch code := ErrorCode(err); {
		case err == nil:
			out[i].Hand, out[i].Replayed = h, replayed
		case code == EUNAVAILABLE || code == EINTERNAL:
			return nil, err
		default:
			out[i].Err, refused = err, true
		}
	}
	return out, nil
}
