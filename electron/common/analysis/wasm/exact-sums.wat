;; The five sums of exact-sums.ts's middle stretch, added on: Σa², Σb² and Σ a[i]·b[i+d] for d = lag − 1,
;; lag, lag + 1. Each sum adds its terms one after the other in ascending i, the products and sums in
;; f64 of the f32 samples, as the JavaScript does, so the sums are its own to the bit; the five chains
;; do not wait on each other, and the f64x2 lanes carry two of them per instruction.
(module
  (import "env" "memory" (memory 1))

  ;; a, b: byte addresses of a[i0] and b[i0]; lagged: of b[i0 + lag − 1]; count: how many i from i0;
  ;; sums: of the five f64 sums (Σa², Σb², then d = lag − 1, lag, lag + 1), read and written back.
  (func (export "addExactSums") (param $a i32) (param $b i32) (param $lagged i32) (param $count i32) (param $sums i32)
    (local $p i32) (local $end i32) (local $x f64) (local $ab v128)
    (local $energies v128) (local $early v128) (local $late f64)
    (local.set $energies (v128.load (local.get $sums)))
    (local.set $early (v128.load offset=16 (local.get $sums)))
    (local.set $late (f64.load offset=32 (local.get $sums)))
    (local.set $end (i32.shl (local.get $count) (i32.const 2)))
    (block $done
      (loop $i
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $x (f64.promote_f32 (f32.load (i32.add (local.get $a) (local.get $p)))))
        ;; [a[i], b[i]]² onto [Σa², Σb²]
        (local.set $ab
          (f64x2.promote_low_f32x4
            (v128.load32_lane 1 (i32.add (local.get $b) (local.get $p))
              (v128.load32_zero (i32.add (local.get $a) (local.get $p))))))
        (local.set $energies (f64x2.add (local.get $energies) (f64x2.mul (local.get $ab) (local.get $ab))))
        ;; a[i]·[b[i + lag − 1], b[i + lag]] onto the first two lagged sums, a[i]·b[i + lag + 1] onto the third
        (local.set $early
          (f64x2.add (local.get $early)
            (f64x2.mul (f64x2.splat (local.get $x))
              (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $lagged) (local.get $p)))))))
        (local.set $late
          (f64.add (local.get $late)
            (f64.mul (local.get $x) (f64.promote_f32 (f32.load offset=8 (i32.add (local.get $lagged) (local.get $p)))))))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (br $i)))
    (v128.store (local.get $sums) (local.get $energies))
    (v128.store offset=16 (local.get $sums) (local.get $early))
    (f64.store offset=32 (local.get $sums) (local.get $late))))
