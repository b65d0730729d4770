;; y ← conj(x)·y over complex bins (interleaved f32 re, im), the inner loop of conjugate-product.ts's
;; conjugateTimes. The same operations on IEEE doubles as the JavaScript, which multiplies and adds the
;; float32 values as doubles and rounds the result to float32 when it stores it: xr·yr + xi·yi and
;; xr·yi − xi·yr in f64, then one rounding to f32 each. So the products are the JavaScript's to the bit.
;; Two bins at a time: their real parts in one f64x2, their imaginary parts in another.
(module
  (import "env" "memory" (memory 1))

  ;; x, y: byte addresses of the first bin; bins: how many, even.
  (func (export "conjugateTimes") (param $x i32) (param $y i32) (param $bins i32)
    (local $p i32) (local $end i32) (local $xv v128) (local $yv v128)
    (local $xr v128) (local $xi v128) (local $yr v128) (local $yi v128)
    (local.set $end (i32.shl (local.get $bins) (i32.const 3)))
    (block $done
      (loop $pair
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $xv (v128.load (i32.add (local.get $x) (local.get $p))))
        (local.set $yv (v128.load (i32.add (local.get $y) (local.get $p))))
        ;; [re0, im0, re1, im1] → [re0, re1] and [im0, im1], as doubles
        (local.set $xr (f64x2.promote_low_f32x4 (i8x16.shuffle 0 1 2 3 8 9 10 11 0 1 2 3 8 9 10 11 (local.get $xv) (local.get $xv))))
        (local.set $xi (f64x2.promote_low_f32x4 (i8x16.shuffle 4 5 6 7 12 13 14 15 4 5 6 7 12 13 14 15 (local.get $xv) (local.get $xv))))
        (local.set $yr (f64x2.promote_low_f32x4 (i8x16.shuffle 0 1 2 3 8 9 10 11 0 1 2 3 8 9 10 11 (local.get $yv) (local.get $yv))))
        (local.set $yi (f64x2.promote_low_f32x4 (i8x16.shuffle 4 5 6 7 12 13 14 15 4 5 6 7 12 13 14 15 (local.get $yv) (local.get $yv))))
        ;; the two rounded real parts and the two rounded imaginary parts, interleaved back
        (v128.store (i32.add (local.get $y) (local.get $p))
          (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23
            (f32x4.demote_f64x2_zero
              (f64x2.add (f64x2.mul (local.get $xr) (local.get $yr)) (f64x2.mul (local.get $xi) (local.get $yi))))
            (f32x4.demote_f64x2_zero
              (f64x2.sub (f64x2.mul (local.get $xr) (local.get $yi)) (f64x2.mul (local.get $xi) (local.get $yr))))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $pair)))))
