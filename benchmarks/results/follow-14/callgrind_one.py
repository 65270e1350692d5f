"""One wrong_lines call of the build SO on a pickled case, for callgrind: callgrind_one.py SO CASE OUT.pkl"""
import importlib.util, pickle, sys
spec = importlib.util.spec_from_file_location("_check", sys.argv[1]); m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
args = pickle.load(open("sys.argv[3]", "rb"))[sys.argv[2]]
assert m.wrong_lines(*args) == []
