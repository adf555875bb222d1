/// The exact sign of the orientation determinant
/// (bx − ax)(cy − ay) − (by − ay)(cx − ax) for double inputs: +1 when a, b, c turn
/// counterclockwise (in a y-up frame), −1 clockwise, 0 collinear.
///
/// A floating-point evaluation with a forward error bound settles almost every call; only
/// when the value is within the bound is it recomputed exactly, as a sum of non-overlapping
/// doubles (error-free transformations: Knuth's two-sum, and two-product through a fused
/// multiply-add). Exact as long as no partial product underflows (coordinate differences
/// above about 2^−500, always the case for tile coordinates), after Shewchuk, "Adaptive
/// Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates" (1997).
@inline(__always)
func _orientationSign(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> Int {
    let l = (bx - ax) * (cy - ay)
    let r = (by - ay) * (cx - ax)
    let det = l - r
    // (3 + 16ε)ε bounds the error of this evaluation relative to |l| + |r|, plus a margin.
    let bound = 3.3306690738754716e-16 * (abs(l) + abs(r))
    if det > bound { return 1 }
    if -det > bound { return -1 }
    return _orientationSignExact(ax, ay, bx, by, cx, cy)
}

@inline(__always)
func _twoSum(_ a: Double, _ b: Double) -> (Double, Double) {
    let s = a + b
    let bb = s - a
    let err = (a - (s - bb)) + (b - bb)
    return (s, err)
}

@inline(__always)
func _twoProduct(_ a: Double, _ b: Double) -> (Double, Double) {
    let p = a * b
    return (p, (-p).addingProduct(a, b))          // fma(a, b, −p), exact
}

@inline(never)
func _orientationSignExact(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> Int {
    // Each difference exactly as hi + lo.
    let (d1h, d1l) = _twoSum(bx, -ax)
    let (d2h, d2l) = _twoSum(cy, -ay)
    let (d3h, d3l) = _twoSum(by, -ay)
    let (d4h, d4l) = _twoSum(cx, -ax)
    // (d1h + d1l)(d2h + d2l) − (d3h + d3l)(d4h + d4l): 8 exact products, 16 terms.
    var terms: [Double] = []
    terms.reserveCapacity(16)
    for (p, q) in [(d1h, d2h), (d1h, d2l), (d1l, d2h), (d1l, d2l)] {
        let (hi, lo) = _twoProduct(p, q)
        terms.append(hi); terms.append(lo)
    }
    for (p, q) in [(d3h, d4h), (d3h, d4l), (d3l, d4h), (d3l, d4l)] {
        let (hi, lo) = _twoProduct(p, q)
        terms.append(-hi); terms.append(-lo)
    }
    // Grow a non-overlapping expansion term by term; its sign is the sign of its
    // largest-magnitude (last non-zero) component.
    var expansion: [Double] = []
    expansion.reserveCapacity(32)
    for t in terms where t != 0 {
        var q = t
        var next: [Double] = []
        next.reserveCapacity(expansion.count + 1)
        for e in expansion {
            let (s, err) = _twoSum(q, e)
            if err != 0 { next.append(err) }
            q = s
        }
        if q != 0 { next.append(q) }
        expansion = next
    }
    guard let top = expansion.last else { return 0 }
    return top > 0 ? 1 : -1
}
