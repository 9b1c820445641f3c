package engine

import (
	"errors"

	"github.com/ledgernode/ledgernode/daml/engine/prim"
	"github.com/ledgernode/ledgernode/daml/lf"
)

// cryptoFail turns a prim error into the fatal Crypto error.
func cryptoFail(m *Machine, err error) {
	var ce *prim.CryptoError
	if !errors.As(err, &ce) {
		m.fail(crash("%v", err))
		return
	}
	kind := ErrCryptoMalformedByteEncoding
	switch ce.Kind {
	case prim.MalformedKey:
		kind = ErrCryptoMalformedKey
	case prim.MalformedSignature:
		kind = ErrCryptoMalformedSignature
	}
	m.fail(&Error{Kind: kind, Message: ce.Message(), Cause: err})
}

func textFn(f func(string) (string, error)) bf {
	return func(m *Machine, a []Value) {
		r, err := f(string(a[0].(Text)))
		if err != nil {
			cryptoFail(m, err)
			return
		}
		m.ret(Text(r))
	}
}

func secpFn(f func(sig, msg, key string) (bool, error)) bf {
	return func(m *Machine, a []Value) {
		r, err := f(string(a[0].(Text)), string(a[1].(Text)), string(a[2].(Text)))
		if err != nil {
			cryptoFail(m, err)
			return
		}
		m.ret(Bool(r))
	}
}

func registerCrypto(reg func(lf.BuiltinFunction, bf)) {
	reg(lf.BuiltinSHA256Hex, textFn(prim.SHA256Hex))
	reg(lf.BuiltinKeccak256Text, textFn(prim.Keccak256Text))
	reg(lf.BuiltinHexToText, textFn(prim.HexToText))
	reg(lf.BuiltinSecp256k1Bool, secpFn(prim.Secp256k1Bool))
	reg(lf.BuiltinSecp256k1WithECDSABool, secpFn(prim.Secp256k1WithECDSABool))
	reg(lf.BuiltinSecp256k1ValidateKey, func(m *Machine, a []Value) {
		r, err := prim.Secp256k1ValidateKey(string(a[0].(Text)))
		if err != nil {
			cryptoFail(m, err)
			return
		}
		m.ret(Bool(r))
	})
}
