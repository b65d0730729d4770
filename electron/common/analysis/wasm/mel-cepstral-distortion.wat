;; The mel-cepstral distortion of one frame pair (mcdFrame in mel-cepstrum.ts) in WebAssembly SIMD. The
;; JavaScript's operations in its order on IEEE doubles, so the same value to the bit: ΔL folded into the
;; sums and differences of mirrored bands, then for each of the 24 cepstral rows its four partial sums,
;; here the lanes of two f64x2 accumulators (bands m, m + 1 and m + 2, m + 3), added as (c0 + c1) + (c2 + c3).
(module
  (import "env" "memory" (memory 1))

  ;; $a, $b: byte addresses of the two frames' 80 mel log amplitudes. $plan: the DCT rows, 24 × 40 doubles
  ;; (cos(πn(m+½)/80)/80 at [(n − 1)·40 + m]), then 40 + 40 doubles of scratch for the folded ΔL.
  ;; Returns (10/ln10)·sqrt(2·Σ_{n=1..24} c_n²).
  (func (export "mcdFrame") (param $a i32) (param $b i32) (param $plan i32) (result f64)
    (local $m i32)      ;; byte offset of band m (8·m)
    (local $mirror i32) ;; byte offset of band 79 − m
    (local $low f64) (local $high f64)
    (local $sums i32) (local $differences i32)
    (local $row i32) (local $rowsEnd i32) (local $folded i32) (local $even i32)
    (local $c01 v128) (local $c23 v128) (local $c f64) (local $sq f64)
    (local.set $sums (i32.add (local.get $plan) (i32.const 7680)))
    (local.set $differences (i32.add (local.get $plan) (i32.const 8000)))

    ;; sums[m] = low + high, differences[m] = low − high; low = ΔL_m, high = ΔL_{79−m}, m < 40
    (local.set $mirror (i32.const 632))
    (block $foldDone
      (loop $fold
        (br_if $foldDone (i32.ge_u (local.get $m) (i32.const 320)))
        (local.set $low
          (f64.sub
            (f64.load (i32.add (local.get $a) (local.get $m)))
            (f64.load (i32.add (local.get $b) (local.get $m)))))
        (local.set $high
          (f64.sub
            (f64.load (i32.add (local.get $a) (local.get $mirror)))
            (f64.load (i32.add (local.get $b) (local.get $mirror)))))
        (f64.store (i32.add (local.get $sums) (local.get $m)) (f64.add (local.get $low) (local.get $high)))
        (f64.store (i32.add (local.get $differences) (local.get $m)) (f64.sub (local.get $low) (local.get $high)))
        (local.set $m (i32.add (local.get $m) (i32.const 8)))
        (local.set $mirror (i32.sub (local.get $mirror) (i32.const 8)))
        (br $fold)))

    ;; c_n over rows n = 1..24: odd n read the differences, even n the sums
    (local.set $row (local.get $plan))
    (local.set $rowsEnd (i32.add (local.get $plan) (i32.const 7680)))
    (block $rowsDone
      (loop $nextRow
        (br_if $rowsDone (i32.ge_u (local.get $row) (local.get $rowsEnd)))
        (local.set $folded (select (local.get $sums) (local.get $differences) (local.get $even)))
        (local.set $c01 (v128.const i64x2 0 0))
        (local.set $c23 (v128.const i64x2 0 0))
        (local.set $m (i32.const 0))
        (block $bandsDone
          (loop $bands
            (br_if $bandsDone (i32.ge_u (local.get $m) (i32.const 320)))
            (local.set $c01
              (f64x2.add
                (local.get $c01)
                (f64x2.mul
                  (v128.load (i32.add (local.get $row) (local.get $m)))
                  (v128.load (i32.add (local.get $folded) (local.get $m))))))
            (local.set $c23
              (f64x2.add
                (local.get $c23)
                (f64x2.mul
                  (v128.load offset=16 (i32.add (local.get $row) (local.get $m)))
                  (v128.load offset=16 (i32.add (local.get $folded) (local.get $m))))))
            (local.set $m (i32.add (local.get $m) (i32.const 32)))
            (br $bands)))
        (local.set $c
          (f64.add
            (f64.add (f64x2.extract_lane 0 (local.get $c01)) (f64x2.extract_lane 1 (local.get $c01)))
            (f64.add (f64x2.extract_lane 0 (local.get $c23)) (f64x2.extract_lane 1 (local.get $c23)))))
        (local.set $sq (f64.add (local.get $sq) (f64.mul (local.get $c) (local.get $c))))
        (local.set $even (i32.eqz (local.get $even)))
        (local.set $row (i32.add (local.get $row) (i32.const 320)))
        (br $nextRow)))
    ;; 10/ln10, as the JavaScript's LN_TO_DB
    (f64.mul (f64.const 0x1.15f2ced384f28p+2) (f64.sqrt (f64.mul (f64.const 2) (local.get $sq)))))
)
