import Dispatch
import ResponseKit

print("hello")
