package contracts

import "math/big"

// basisPointScale is the denominator of basis points: 10000 is 100 %.
const basisPointScale = 10000

// round is x to a whole number of minor units, a half rounded away from
// zero: the rule pricing rounds every amount by (pricing.FromNet). The
// amounts it rounds are far below the int64 limit.
func round(x *big.Rat) int64 {
	// ⌊(2|n| + d) / 2d⌋ is |n/d| rounded half up.
	num, den := new(big.Int).Abs(x.Num()), x.Denom()
	q := num.Add(num.Lsh(num, 1), den)
	q.Quo(q, new(big.Int).Lsh(den, 1))
	if x.Sign() < 0 {
		q.Neg(q)
	}
	return q.Int64()
}

// portion is basis points of an amount (1000 of 5000 is 500), rounded
// once.
func portion(amount, basisPoints int64) int64 {
	return round(new(big.Rat).Mul(new(big.Rat).SetInt64(amount), big.NewRat(basisPoints, basisPointScale)))
}
