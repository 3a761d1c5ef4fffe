"""The lesson's deck (/lesson, the page is pages/lesson.py): the component and its payload
(deck.py), every scene's numbers (data.py), the §9 skeleton (skeleton.py), its JS and CSS."""
