package engine

import (
	"slices"
	"sync/atomic"

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
