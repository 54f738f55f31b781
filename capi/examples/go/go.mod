module proofline.example/provebatch

go 1.19
