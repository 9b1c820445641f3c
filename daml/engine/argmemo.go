package engine

import (
	"slices"
	"sync/atomic"
	"weak"

	"github.com/ledgernode/ledgernode/daml/value"
)

// ArgMemo keeps a contract argument converted to the engine's values, so
// that a contract a store hands out again and again (every submission of
// a Daml Script that exercises it) is converted once, not at every
// lookup. A store that keeps its contract arguments decoded and shared
// (the ledger's cache of decoded arguments) gives each shared argument a
// memo of its own and hands it out with that argument, unchanged, in
// Contract.Memo; the zero ArgMemo is empty and ready for use. It is safe
// for concurrent use.
//
// Sharing the converted value is sound because engine values are
// immutable once built (Value): the machine builds new values for record
// and struct updates, map inserts and upgrade translations, and never
// changes a value it was given.
type ArgMemo struct {
	p atomic.Pointer[argConv]
	// checks are the validations of the argument's contract metadata
	// that engines completed (validatedBy, addValidated).
	checks atomic.Pointer[argChecks]
}

// argConv is an argument converted by the engines of one compiled cache:
// v as fromLedgerValue returned it, and pkgs the ids of the packages of
// the data types it names (which an engine must find in its own source to
// use v, as converting would).
type argConv struct {
	c    *compiled
	v    Value
	pkgs []string
}

// contractArg returns the contract's argument as engine values: the
// memo's value when the contract has one converted by an engine of the
// same shared Cache and the engine sees every package its types come
// from, else fromLedgerValue's (kept in the memo).
//
// The value is what fromLedgerValue would return: conversion depends on
// the argument and on the data types its type ids name, and engines
// sharing a Cache agree on what a package id names (Cache) and share its
// record types; an engine missing one of the packages converts afresh
// (and fails as before). Engines with a compiled cache of their own keep
// nothing in the memo, which would otherwise hold their cache alive.
func (e *Engine) contractArg(c *Contract) (Value, *Error) {
	memo := c.Memo
	if memo == nil || !e.sharedCache {
		return e.fromLedgerValue(c.Arg)
	}
	if cv := memo.p.Load(); cv != nil && cv.c == e.c && e.seesAll(cv.pkgs) {
		return cv.v, nil
	}
	v, err := e.fromLedgerValue(c.Arg)
	if err != nil {
		return nil, err
	}
	memo.p.Store(&argConv{c: e.c, v: v, pkgs: typePackages(c.Arg, nil)})
	return v, nil
}

// seesAll reports whether the engine's source has every package of pkgs.
func (e *Engine) seesAll(pkgs []string) bool {
	for _, id := range pkgs {
		if e.src.Package(id) == nil {
			return false
		}
	}
	return true
}

// typePackages appends to out the package ids of the type ids of the
// records, variants and enums in v that out lacks.
func typePackages(v value.Value, out []string) []string {
	add := func(id string) {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	switch x := v.(type) {
	case value.Record:
		if x.RecordID != nil {
			add(x.RecordID.PackageID)
		}
		for _, f := range x.Fields {
			out = typePackages(f.Value, out)
		}
	case value.Variant:
		if x.VariantID != nil {
			add(x.VariantID.PackageID)
		}
		out = typePackages(x.Value, out)
	case value.Enum:
		if x.EnumID != nil {
			add(x.EnumID.PackageID)
		}
	case value.List:
		for _, el := range x {
			out = typePackages(el, out)
		}
	case value.Optional:
		if x.Value != nil {
			out = typePackages(x.Value, out)
		}
	case value.TextMap:
		for _, en := range x {
			out = typePackages(en.Value, out)
		}
	case value.GenMap:
		for _, en := range x {
			out = typePackages(en.Key, out)
			out = typePackages(en.Value, out)
		}
	}
	return out
}

// A ledger contract that a submission uses under a template is validated
// first (fetchContractAs, kValidate: Speedy's SBuiltinFun.fetchTemplate
// and fetchInterface recompute the precondition, the signatories and the
// observers under the template used and compare them with the stored
// metadata). Speedy does it once per contract, package and
// interpretation; a Daml Script submits many times against the same
// contracts (AmuletRules, the open rounds …), and these evaluations were
// half the steps of its submissions.
//
// The validation is a function of the argument, the package the
// template is taken from and the stored metadata: the three are pure
// Daml expressions of the argument (no ledger access, no time), compiled
// from a package that its id names for good. So an engine that validated
// an argument under a package need not evaluate them again for a
// contract with the same argument and metadata: it would compute the
// same values. What an evaluation could show besides its value are the
// messages of TRACE, which an engine without a trace sink drops
// (memoizesChecks), and its steps, which only count against the step
// budget. A failed validation is not kept: it fails again, with its
// error, at every use, as before.
//
// The memo keeps the validations per engine (a weak pointer, which does
// not keep the engine alive): each node runs its own engine, so a node
// (a Daml Script's) validates a contract once for all its submissions
// and reuses nothing another node validated.

// argChecks are the validations kept in an ArgMemo; never changed once
// stored (addValidated stores a new list).
type argChecks struct {
	list []argCheck
}

// argCheck is a validation an engine completed: the argument under the
// template of package pkg has the signatories sigs and the stakeholders
// stakeholders (sorted sets).
type argCheck struct {
	e                  weak.Pointer[Engine]
	pkg                string
	sigs, stakeholders []string
}

// argChecksMax bounds the validations an ArgMemo keeps (the engines of
// the nodes that use the contract at once, times the packages they use
// it under); past it the oldest go.
const argChecksMax = 8

// memoizesChecks reports whether the engine keeps its validations in the
// memos: when it has no trace sink, so that skipping an evaluation
// cannot drop a message.
func (e *Engine) memoizesChecks() bool {
	return e.opts.Trace == nil && e.opts.TraceContext == nil
}

// validatedBy reports whether engine e validated the argument under the
// template of package pkg, with the signatories sigs and the stakeholders
// stakeholders as the result.
func (memo *ArgMemo) validatedBy(e weak.Pointer[Engine], pkg string, sigs, stakeholders []string) bool {
	cs := memo.checks.Load()
	if cs == nil {
		return false
	}
	for i := range cs.list {
		c := &cs.list[i]
		if c.e == e && c.pkg == pkg && slices.Equal(c.sigs, sigs) && slices.Equal(c.stakeholders, stakeholders) {
			return true
		}
	}
	return false
}

// addValidated records that engine e validated the argument under the
// template of package pkg with the signatories sigs and the stakeholders
// stakeholders (which the memo keeps: the caller does not change them).
// It drops the validations of engines that are gone, and the oldest past
// argChecksMax.
func (memo *ArgMemo) addValidated(e weak.Pointer[Engine], pkg string, sigs, stakeholders []string) {
	for {
		old := memo.checks.Load()
		var list []argCheck
		if old != nil {
			list = make([]argCheck, 0, len(old.list)+1)
			for _, c := range old.list {
				if c.e == e || c.e.Value() != nil {
					list = append(list, c)
				}
			}
		}
		list = append(list, argCheck{e: e, pkg: pkg, sigs: sigs, stakeholders: stakeholders})
		if len(list) > argChecksMax {
			list = list[len(list)-argChecksMax:]
		}
		if memo.checks.CompareAndSwap(old, &argChecks{list: list}) {
			return
		}
	}
}
