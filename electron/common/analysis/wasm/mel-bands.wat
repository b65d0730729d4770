;; The mel filterbank's band sums (bandSums in mel-cepstrum.ts) in WebAssembly SIMD, loaded by
;; mel-simd.ts. Each band's bins are taken in pairs: the even-offset bin in lane 0 and the odd-offset
;; bin in lane 1 of f64x2 values, which are the JavaScript loop's two partial sums. The floor is taken by
;; f64x2.pmax(floor, p), which is `p > floor ? p : floor` (NaN reads as the floor). The operations are
;; the JavaScript loop's, in its order, so the sums are the same to the last bit.
(module
  ;; Byte offsets from the plan's address $plan in the imported memory (mel-simd.ts copies a plan in once):
  ;;      0 starts:   i32 per band, the band's first bin
  ;;    512 counts:   i32 per band, its number of bins
  ;;   1024 weightAt: i32 per band, the index of its first weight in weights
  ;;   1536 sums:     f64 per band, written here
  ;;   2560 weights:  f64
  ;; At most 128 bands. The spectrum is read in place, at the byte address $power.
  (import "env" "memory" (memory 1))

  ;; sums[m] = Σ weights[weightAt[m] + j] · max(p[starts[m] + j], floor) over j < counts[m], for each band
  ;; m < $end / 4, p being the spectrum at byte address $power; a band whose sum is not positive reads its
  ;; first bin through the floor instead.
  (func (export "bandSums") (param $power i32) (param $floor f64) (param $end i32) (param $plan i32)
    (local $m i32)     ;; the band's byte offset into the i32 tables (4 per band)
    (local $first i32) ;; byte address of the band's first bin in the spectrum
    (local $w i32)     ;; byte address of the band's first weight
    (local $count i32) ;; its number of bins
    (local $j i32)     ;; the bin within the band
    (local $s f64)     ;; the band's sum
    (local $lanes v128) ;; the two partial sums: even-offset bins in lane 0, odd in lane 1
    (local $floors v128) ;; the floor in both lanes

    (local.set $floors (f64x2.splat (local.get $floor)))
    (block $bandsDone
      (loop $nextBand
        (br_if $bandsDone (i32.ge_s (local.get $m) (local.get $end)))
        (local.set $first
          (i32.add
            (local.get $power)
            (i32.shl (i32.load (i32.add (local.get $plan) (local.get $m))) (i32.const 3))))
        (local.set $w
          (i32.add
            (i32.shl (i32.load offset=1024 (i32.add (local.get $plan) (local.get $m))) (i32.const 3))
            (i32.add (local.get $plan) (i32.const 2560))))
        (local.set $count (i32.load offset=512 (i32.add (local.get $plan) (local.get $m))))
        (local.set $lanes (v128.const i64x2 0 0))
        (local.set $j (i32.const 0))

        ;; Two bins per iteration: lanes += w[j, j+1] · pmax(floor, p[j, j+1]).
        (block $pairsDone
          (loop $nextPair
            (br_if $pairsDone
              (i32.ge_s (i32.add (local.get $j) (i32.const 1)) (local.get $count)))
            (local.set $lanes
              (f64x2.add
                (local.get $lanes)
                (f64x2.mul
                  (v128.load align=8
                    (i32.add (local.get $w) (i32.shl (local.get $j) (i32.const 3))))
                  (f64x2.pmax
                    (local.get $floors)
                    (v128.load align=8
                      (i32.add (local.get $first) (i32.shl (local.get $j) (i32.const 3))))))))
            (local.set $j (i32.add (local.get $j) (i32.const 2)))
            (br $nextPair)))

        (local.set $s (f64x2.extract_lane 0 (local.get $lanes)))
        ;; An odd count leaves one bin: s += w[j] · (p[j] > floor ? p[j] : floor).
        (if (i32.lt_s (local.get $j) (local.get $count))
          (then
            (local.set $s
              (f64.add
                (local.get $s)
                (f64.mul
                  (f64.load
                    (i32.add (local.get $w) (i32.shl (local.get $j) (i32.const 3))))
                  (call $floored
                    (f64.load
                      (i32.add (local.get $first) (i32.shl (local.get $j) (i32.const 3))))
                    (local.get $floor)))))))
        (local.set $s (f64.add (local.get $s) (f64x2.extract_lane 1 (local.get $lanes))))
        ;; Bins are floored, so s > 0 except for a band whose only bin sits on its edge (weight 0): that
        ;; band reads its first bin through the floor (the edge rule of melLogAmplitude).
        (if (i32.eqz (f64.gt (local.get $s) (f64.const 0)))
          (then
            (local.set $s
              (call $floored (f64.load (local.get $first)) (local.get $floor)))))
        ;; sums[m] = s (the f64 at 1536 + 8·band = 1536 + 2·m).
        (f64.store offset=1536
          (i32.add (local.get $plan) (i32.shl (local.get $m) (i32.const 1)))
          (local.get $s))
        (local.set $m (i32.add (local.get $m) (i32.const 4)))
        (br $nextBand))))
  ;; p > floor ? p : floor (NaN reads as the floor)
  (func $floored (param $p f64) (param $floor f64) (result f64)
    (select (local.get $p) (local.get $floor) (f64.gt (local.get $p) (local.get $floor))))
)
