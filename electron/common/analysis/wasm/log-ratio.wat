;; Σ ln(A_k / B_k)² of two power spectra in memory, each bin read through its side's floor: the
;; log-spectral distance's inner loop (log-ratio.ts's sumSquaredLogRatios and tableLogs). The same
;; operations in the same order on IEEE doubles as the JavaScript, so the same sums to the bit: two bins
;; at a time in the f64x2 lanes, the squares added one bin after the other as the JavaScript adds them.
;;
;; ln x for a positive normal x = 2^e·m, m in [1, 2): j = m's first 10 fraction bits, c_j = 1 + j/1024,
;; ln x = e·ln 2 + ln c_j + ln(1 + r), r = m/c_j − 1, ln(1 + r) by its series to r^5. The tables (at the
;; `tables` address, 1024 doubles each): 1/c_j, then ln c_j. Zero, subnormal, infinite, negative and NaN
;; values take the imported Math.log, as in the JavaScript.
(module
  (import "env" "memory" (memory 1))
  (import "env" "log" (func $math_log (param f64) (result f64)))

  (func $ln (param $x f64) (param $tables i32) (result f64)
    (local $bits i64) (local $biased i32) (local $j i32) (local $r f64)
    (local.set $bits (i64.reinterpret_f64 (local.get $x)))
    ;; the sign bit and the exponent, as the JavaScript's high word >>> 20
    (local.set $biased (i32.wrap_i64 (i64.shr_u (local.get $bits) (i64.const 52))))
    (if (i32.or (i32.eqz (local.get $biased)) (i32.ge_u (local.get $biased) (i32.const 2047)))
      (then (return (call $math_log (local.get $x)))))
    (local.set $j (i32.wrap_i64 (i64.and (i64.shr_u (local.get $bits) (i64.const 42)) (i64.const 1023))))
    ;; r = m·(1/c_j) − 1, m = x·2^−e exactly (x's fraction bits under a zero exponent)
    (local.set $r
      (f64.sub
        (f64.mul
          (f64.reinterpret_i64
            (i64.or (i64.and (local.get $bits) (i64.const 0x000fffffffffffff)) (i64.const 0x3ff0000000000000)))
          (f64.load (i32.add (local.get $tables) (i32.shl (local.get $j) (i32.const 3)))))
        (f64.const 1)))
    (f64.add
      (f64.add
        (f64.mul (f64.convert_i32_s (i32.sub (local.get $biased) (i32.const 1023))) (f64.const 0x1.62e42fefa39efp-1))
        (f64.load offset=8192 (i32.add (local.get $tables) (i32.shl (local.get $j) (i32.const 3)))))
      (call $series (local.get $r))))

  ;; ln(1 + r) ≈ r − r²·(1/2 − r·(1/3 − r·(1/4 − r/5)))
  (func $series (param $r f64) (result f64)
    (f64.sub
      (local.get $r)
      (f64.mul
        (f64.mul (local.get $r) (local.get $r))
        (f64.sub
          (f64.const 0.5)
          (f64.mul
            (local.get $r)
            (f64.sub
              (f64.const 0x1.5555555555555p-2)
              (f64.mul
                (local.get $r)
                (f64.sub (f64.const 0.25) (f64.mul (local.get $r) (f64.const 0x1.999999999999ap-3))))))))))

  ;; a, b: byte addresses of A's and B's first bin; count bins; tables: the address of the two tables.
  (func (export "sumSquaredLogRatios")
    (param $a i32) (param $floor_a f64) (param $b i32) (param $floor_b f64) (param $count i32) (param $tables i32)
    (result f64)
    (local $k i32) (local $pairs_end i32) (local $sum f64) (local $l0 f64) (local $l1 f64)
    (local $fa v128) (local $fb v128) (local $v v128) (local $biased v128) (local $j v128) (local $r v128)
    (local $j0 i32) (local $j1 i32) (local $ln v128)
    (local.set $fa (f64x2.splat (local.get $floor_a)))
    (local.set $fb (f64x2.splat (local.get $floor_b)))
    (local.set $pairs_end (i32.and (local.get $count) (i32.const -2)))
    (block $done
      (loop $pairs
        (br_if $done (i32.ge_u (local.get $k) (local.get $pairs_end)))
        ;; v = max(a, floor_a) / max(b, floor_b); pmax(floor, x) is floor < x ? x : floor, so NaN reads as the floor
        (local.set $v
          (f64x2.div
            (f64x2.pmax (local.get $fa) (v128.load (i32.add (local.get $a) (i32.shl (local.get $k) (i32.const 3)))))
            (f64x2.pmax (local.get $fb) (v128.load (i32.add (local.get $b) (i32.shl (local.get $k) (i32.const 3)))))))
        (local.set $biased (i64x2.shr_u (local.get $v) (i32.const 52)))
        (if (v128.any_true
              (v128.or
                (i64x2.eq (local.get $biased) (i64x2.splat (i64.const 0)))
                (i64x2.ge_s (local.get $biased) (i64x2.splat (i64.const 2047)))))
          (then
            ;; a lane that is not a positive normal double: both lanes through $ln, which calls Math.log
            (local.set $l0 (call $ln (f64x2.extract_lane 0 (local.get $v)) (local.get $tables)))
            (local.set $l1 (call $ln (f64x2.extract_lane 1 (local.get $v)) (local.get $tables))))
          (else
            (local.set $j
              (i64x2.shl
                (v128.and (i64x2.shr_u (local.get $v) (i32.const 42)) (i64x2.splat (i64.const 1023)))
                (i32.const 3)))
            (local.set $j0 (i32.add (local.get $tables) (i32.wrap_i64 (i64x2.extract_lane 0 (local.get $j)))))
            (local.set $j1 (i32.add (local.get $tables) (i32.wrap_i64 (i64x2.extract_lane 1 (local.get $j)))))
            ;; r = m·(1/c_j) − 1, m = v·2^−e exactly
            (local.set $r
              (f64x2.sub
                (f64x2.mul
                  (v128.or
                    (v128.and (local.get $v) (i64x2.splat (i64.const 0x000fffffffffffff)))
                    (i64x2.splat (i64.const 0x3ff0000000000000)))
                  (f64x2.replace_lane 1 (f64x2.splat (f64.load (local.get $j0))) (f64.load (local.get $j1))))
                (f64x2.splat (f64.const 1))))
            (local.set $ln
              (f64x2.add
                (f64x2.add
                  ;; e·ln 2: the two lanes' biased exponents (the low words of the i64 lanes) − 1023, as doubles
                  (f64x2.mul
                    (f64x2.convert_low_i32x4_s
                      (i32x4.sub
                        (i8x16.shuffle 0 1 2 3 8 9 10 11 0 1 2 3 8 9 10 11 (local.get $biased) (local.get $biased))
                        (i32x4.splat (i32.const 1023))))
                    (f64x2.splat (f64.const 0x1.62e42fefa39efp-1)))
                  (f64x2.replace_lane 1
                    (f64x2.splat (f64.load offset=8192 (local.get $j0)))
                    (f64.load offset=8192 (local.get $j1))))
                ;; $series on both lanes, written out here (V8 does not inline calls between WebAssembly functions)
                (f64x2.sub
                  (local.get $r)
                  (f64x2.mul
                    (f64x2.mul (local.get $r) (local.get $r))
                    (f64x2.sub
                      (f64x2.splat (f64.const 0.5))
                      (f64x2.mul
                        (local.get $r)
                        (f64x2.sub
                          (f64x2.splat (f64.const 0x1.5555555555555p-2))
                          (f64x2.mul
                            (local.get $r)
                            (f64x2.sub
                              (f64x2.splat (f64.const 0.25))
                              (f64x2.mul (local.get $r) (f64x2.splat (f64.const 0x1.999999999999ap-3))))))))))))
            (local.set $l0 (f64x2.extract_lane 0 (local.get $ln)))
            (local.set $l1 (f64x2.extract_lane 1 (local.get $ln)))))
        (local.set $sum (f64.add (local.get $sum) (f64.mul (local.get $l0) (local.get $l0))))
        (local.set $sum (f64.add (local.get $sum) (f64.mul (local.get $l1) (local.get $l1))))
        (local.set $k (i32.add (local.get $k) (i32.const 2)))
        (br $pairs)))
    (if (i32.lt_u (local.get $k) (local.get $count))
      (then
        (local.set $l0
          (call $ln
            (f64.div
              (call $floored (f64.load (i32.add (local.get $a) (i32.shl (local.get $k) (i32.const 3)))) (local.get $floor_a))
              (call $floored (f64.load (i32.add (local.get $b) (i32.shl (local.get $k) (i32.const 3)))) (local.get $floor_b)))
            (local.get $tables)))
        (local.set $sum (f64.add (local.get $sum) (f64.mul (local.get $l0) (local.get $l0))))))
    (local.get $sum))

  ;; x[k] = ln(x[k])·scale for k < count, in place at the byte address $x: log-ratio.ts's scaledLogs (the
  ;; mel log amplitudes, ½·ln of each band's power), one value after the other through $ln.
  (func (export "scaledLogs") (param $x i32) (param $count i32) (param $scale f64) (param $tables i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $x) (i32.shl (local.get $count) (i32.const 3))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $x) (local.get $end)))
        (f64.store
          (local.get $x)
          (f64.mul (call $ln (f64.load (local.get $x)) (local.get $tables)) (local.get $scale)))
        (local.set $x (i32.add (local.get $x) (i32.const 8)))
        (br $next))))

  ;; x > floor ? x : floor (NaN reads as the floor)
  (func $floored (param $x f64) (param $floor f64) (result f64)
    (select (local.get $x) (local.get $floor) (f64.gt (local.get $x) (local.get $floor))))
)
