package api

import (
	"time"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

// Observer hears what the API answered, for the operator's metrics: every
// request by its route's template, and what the ledger made of the hands
// written through it. It only counts: what is a hand
// recorded, a refusal or a correction is the ledger's answer, read here
// from the result or error the ledger returned.
type Observer interface {
	// Request is one answered request: its method, the template of its
	// route ("/v1/tables/{tableID}/hands", "" when no route matched), its
	// status and how long it took.
	Request(method, route string, status int, took time.Duration)
	// HandRecorded is a hand stored (not a replay) at a table of game.
	HandRecorded(game string)
	// HandRefused is a hand the ledger refused: its error code and the
	// field it names ("" when it names none).
	HandRefused(code, field string)
	// HandCorrected is a stored hand's new revision.
	HandCorrected(kind Correction)
}

// Correction is what a new revision of a hand did.
type Correction string

const (
	CorrectionFacts Correction = "facts" // new facts
	CorrectionVoid  Correction = "void"  // voided by a correction
	CorrectionUndo  Correction = "undo"  // the last hand taken back
)

// OpenStreams is how many event streams are open on this instance.
func (s *Server) OpenStreams() int { return s.streams.total() }

// observeHand reports a hand write's outcome to the observer: a stored hand
// (not replayed) or the ledger's refusal.
func (s *Server) observeHand(h ledger.Hand, replayed bool, err error) {
	o := s.cfg.Observer
	if o == nil {
		return
	}
	switch {
	case err != nil:
		if code := ledger.ErrorCode(err); code != ledger.EUNAVAILABLE && code != ledger.EINTERNAL {
			o.HandRefused(code, ledger.AsError(err).Field)
		}
	case !replayed:
		o.HandRecorded(h.Game)
	}
}

// observeCorrection reports a new revision of a hand (not a replay).
func (s *Server) observeCorrection(kind Correction, replayed bool, err error) {
	if o := s.cfg.Observer; o != nil && err == nil && !replayed {
		o.HandCorrected(kind)
	}
}

// observeRequest reports an answered request by its route's template.
func (s *Server) observeRequest(c echo.Context, status int, took time.Duration) {
	o := s.cfg.Observer
	if o == nil {
		return
	}
	route := ""
	if p := c.Path(); p != "" && p != "/*" {
		route = openAPIPath(p)
	}
	o.Request(c.Request().Method, route, status, took)
}
