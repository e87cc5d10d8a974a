// (a*2 + a*3): tg-symbolic folds it to a*5.
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 2 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 3 : !tg.weakint
%5 = tg.mul %1, %4 : !tg.weakint, !tg.weakint
%6 = tg.add %3, %5 : !tg.weakint, !tg.weakint
