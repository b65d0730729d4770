;; A frame's window and power spectrum (power-spectrum.ts's powerSpectrum around the FFT), two values
;; at a time in the lanes of f64x2 values. The same operations in the same order on IEEE doubles as the
;; JavaScript, so the same floats and doubles to the bit.
(module
  (import "env" "memory" (memory 1))

  ;; frame[i] = float32(frame[i] · window[i]) for i < count, 0 for count ≤ i < size (float32 frame,
  ;; float64 window; byte addresses).
  (func (export "windowFrame") (param $frame i32) (param $window i32) (param $count i32) (param $size i32)
    (local $i i32) (local $quads_end i32) (local $x v128) (local $at i32)
    (local.set $quads_end (i32.and (local.get $count) (i32.const -4)))
    (block $done
      (loop $quads
        (br_if $done (i32.ge_u (local.get $i) (local.get $quads_end)))
        (local.set $at (i32.add (local.get $frame) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $x (v128.load (local.get $at)))
        (v128.store
          (local.get $at)
          ;; the products of samples 0, 1 and of samples 2, 3, each rounded to float32, side by side
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
            (f32x4.demote_f64x2_zero
              (f64x2.mul
                (f64x2.promote_low_f32x4 (local.get $x))
                (v128.load (i32.add (local.get $window) (i32.shl (local.get $i) (i32.const 3))))))
            (f32x4.demote_f64x2_zero
              (f64x2.mul
                (f64x2.promote_low_f32x4
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $x) (local.get $x)))
                (v128.load offset=16 (i32.add (local.get $window) (i32.shl (local.get $i) (i32.const 3))))))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $quads)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $at (i32.add (local.get $frame) (i32.shl (local.get $i) (i32.const 2))))
        (f32.store
          (local.get $at)
          (f32.demote_f64
            (f64.mul
              (f64.promote_f32 (f32.load (local.get $at)))
              (f64.load (i32.add (local.get $window) (i32.shl (local.get $i) (i32.const 3)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $tail)))
    (if (i32.lt_u (local.get $count) (local.get $size))
      (then
        (memory.fill
          (i32.add (local.get $frame) (i32.shl (local.get $count) (i32.const 2)))
          (i32.const 0)
          (i32.shl (i32.sub (local.get $size) (local.get $count)) (i32.const 2))))))

  ;; out[k] = |X_k|²·norm for bins 0..half of an ordered PFFFT spectrum (float32 [DC, Nyquist, re1, im1,
  ;; …]; out float64); returns the loudest bin, NaN never counting. Bins 1, 2, … are taken in pairs, the
  ;; first of each pair kept in lane 0's running maximum and the second in lane 1's (with DC, Nyquist
  ;; and an odd last bin in lane 0's), as the JavaScript's two running maxima.
  (func (export "powerBins") (param $fft i32) (param $out i32) (param $norm f64) (param $half i32) (result f64)
    (local $k i32) (local $x v128) (local $p v128) (local $max v128) (local $dc f64) (local $nyquist f64)
    (local $lane0 f64) (local $lane1 f64) (local $re f64) (local $im f64) (local $norms v128)
    (local.set $dc (f64.mul (f64.mul (f64.promote_f32 (f32.load (local.get $fft))) (f64.promote_f32 (f32.load (local.get $fft)))) (local.get $norm)))
    (local.set $nyquist
      (f64.mul
        (f64.mul (f64.promote_f32 (f32.load offset=4 (local.get $fft))) (f64.promote_f32 (f32.load offset=4 (local.get $fft))))
        (local.get $norm)))
    (f64.store (local.get $out) (local.get $dc))
    (f64.store (i32.add (local.get $out) (i32.shl (local.get $half) (i32.const 3))) (local.get $nyquist))
    (if (f64.gt (local.get $dc) (local.get $lane0)) (then (local.set $lane0 (local.get $dc))))
    (if (f64.gt (local.get $nyquist) (local.get $lane0)) (then (local.set $lane0 (local.get $nyquist))))
    (local.set $max (f64x2.replace_lane 0 (f64x2.splat (f64.const 0)) (local.get $lane0)))
    (local.set $norms (f64x2.splat (local.get $norm)))
    (local.set $k (i32.const 1))
    (block $done
      (loop $pairs
        (br_if $done (i32.ge_u (i32.add (local.get $k) (i32.const 1)) (local.get $half)))
        ;; re_k, im_k, re_k+1, im_k+1
        (local.set $x (v128.load (i32.add (local.get $fft) (i32.shl (local.get $k) (i32.const 3)))))
        (local.set $p
          (f64x2.mul
            (f64x2.add
              (f64x2.mul
                (f64x2.promote_low_f32x4 (i8x16.shuffle 0 1 2 3 8 9 10 11 0 1 2 3 8 9 10 11 (local.get $x) (local.get $x)))
                (f64x2.promote_low_f32x4 (i8x16.shuffle 0 1 2 3 8 9 10 11 0 1 2 3 8 9 10 11 (local.get $x) (local.get $x))))
              (f64x2.mul
                (f64x2.promote_low_f32x4 (i8x16.shuffle 4 5 6 7 12 13 14 15 4 5 6 7 12 13 14 15 (local.get $x) (local.get $x)))
                (f64x2.promote_low_f32x4 (i8x16.shuffle 4 5 6 7 12 13 14 15 4 5 6 7 12 13 14 15 (local.get $x) (local.get $x)))))
            (local.get $norms)))
        (v128.store (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 3))) (local.get $p))
        ;; pmax(max, p) is max < p ? p : max
        (local.set $max (f64x2.pmax (local.get $max) (local.get $p)))
        (local.set $k (i32.add (local.get $k) (i32.const 2)))
        (br $pairs)))
    (local.set $lane0 (f64x2.extract_lane 0 (local.get $max)))
    (local.set $lane1 (f64x2.extract_lane 1 (local.get $max)))
    (if (i32.lt_u (local.get $k) (local.get $half))
      (then
        (local.set $re (f64.promote_f32 (f32.load (i32.add (local.get $fft) (i32.shl (local.get $k) (i32.const 3))))))
        (local.set $im (f64.promote_f32 (f32.load offset=4 (i32.add (local.get $fft) (i32.shl (local.get $k) (i32.const 3))))))
        (local.set $re (f64.mul (f64.add (f64.mul (local.get $re) (local.get $re)) (f64.mul (local.get $im) (local.get $im))) (local.get $norm)))
        (f64.store (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 3))) (local.get $re))
        (if (f64.gt (local.get $re) (local.get $lane0)) (then (local.set $lane0 (local.get $re))))))
    (select (local.get $lane0) (local.get $lane1) (f64.gt (local.get $lane0) (local.get $lane1))))
)
