package backup

import "context"

// ExportStore is the store Export reads a club from.
type ExportStore interface {
	// ReadDocument reads a club's whole ledger, all but the format marker,
	// from one consistent snapshot: hands recorded meanwhile are either
	// wholly in it or not at all. Its lists are ordered as Document says,
	// empty (never nil) when there is nothing, and its times are in UTC.
	// A missing club is ENOTFOUND.
	ReadDocument(ctx context.Context, clubID int64) (*Document, error)
}

// Export reads a club's whole ledger as one document.
func Export(ctx context.Context, store ExportStore, clubID int64) (*Document, error) {
	d, err := store.ReadDocument(ctx, clubID)
	if err != nil {
		return nil, err
	}
	d.Format = Format
	return d, nil
}
