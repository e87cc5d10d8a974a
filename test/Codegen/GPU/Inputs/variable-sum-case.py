"""A kernel case (corpus format) around variable-sum-ast.json: the sum of the first v of 70000 ones,
v a variable in [1, 70000] bound to argv[2]; written to argv[1]."""
import json, os, sys

ast = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "variable-sum-ast.json")))
v = int(sys.argv[2])
case = {
    "id": "variable_sum", "format_version": 1, "name": "r_n", "ast": ast,
    "params": [{"slot": 0, "dtype": "float32", "size": 1, "shape": [1], "addrspace": "GLOBAL"},
               {"slot": 1, "dtype": "float32", "size": 70000, "shape": [70000], "addrspace": "GLOBAL"}],
    "vars": [{"name": "v", "slot": -1, "dtype": "weakint", "vmin": 1, "vmax": 70000, "value": v}],
    "var_vals": {"v": v},
    "inputs": {"1": [1.0] * 70000}, "outputs": {"0": [float(v)]},
    "program_info": {"function_name": "r_n", "global_size": [1, 1, 1], "local_size": [1, 1, 1], "globals": [0, 1],
                     "outs": [0], "ins": [1], "vars": [{"name": "v", "slot": 2, "dtype": "int32"}]},
}
json.dump(case, open(sys.argv[1], "w"))
